/**
 * ClickHouse as one piece for the rest of the server: the client, its schema (applied once it
 * answers, retried by the shipper's runs if it did not at start) and the shipper. Built only when
 * CLICKHOUSE_URL is set; without it nothing of this folder runs.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import type { ClickHouse } from './connection.js';
import { applyClickHouseSchema } from './schema.query.js';
import { createShipper, type ShipperLog } from './shipper.js';

export function createClickHouseEngine(deps: {
  db: Kysely<DB>;
  clock: Clock;
  clickhouse: ClickHouse;
  log?: ShipperLog;
}) {
  const shipper = createShipper(deps);
  let schemaApplied: Promise<void> | undefined;

  /** Applies the schema once; a failure is forgotten, so the next call tries again. */
  const ensureSchema = () => {
    schemaApplied ??= applyClickHouseSchema(deps.clickhouse).then(
      () => undefined,
      (error) => {
        schemaApplied = undefined;
        throw error;
      },
    );
    return schemaApplied;
  };

  return {
    clickhouse: deps.clickhouse,
    shipper,
    ensureSchema,
    /** One shipping round (the background job's tick). */
    async shipOnce() {
      await ensureSchema();
      return shipper.shipOnce();
    },
    /** Whether ClickHouse answers a ping now. */
    async ping(): Promise<boolean> {
      try {
        return (await deps.clickhouse.client.ping()).success;
      } catch {
        return false;
      }
    },
  };
}

export type ClickHouseEngine = ReturnType<typeof createClickHouseEngine>;
