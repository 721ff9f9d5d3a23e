/**
 * ClickHouse as one piece for the rest of the server: the client, its schema (applied once it
 * answers, retried by the shipper's runs if it did not at start) and the shipper. Built only when
 * CLICKHOUSE_URL is set; without it nothing of this folder runs.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import type { ClickHouseReads } from '../reporting/grain-sources.js';
import type { ClickHouse } from './connection.js';
import { applyClickHouseSchema } from './schema.query.js';
import { enableShipping } from './ship-batches.query.js';
import { backoffMs, createShipper, describeFailure, type ShipperLog } from './shipper.js';

export function createClickHouseEngine(deps: {
  db: Kysely<DB>;
  clock: Clock;
  clickhouse: ClickHouse;
  log?: ShipperLog;
}) {
  const shipper = createShipper(deps);
  let schemaApplied: Promise<void> | undefined;
  // While ClickHouse does not answer, the schema is tried again after a growing pause.
  let schemaFailures = 0;
  let schemaRetryAt = 0;

  /** Applies the schema once; a failure is forgotten, so a later call tries again. */
  const ensureSchema = () => {
    schemaApplied ??= applyClickHouseSchema(deps.clickhouse).then(
      () => {
        schemaFailures = 0;
        return enableShipping(deps.db);
      },
      (error) => {
        schemaApplied = undefined;
        schemaFailures += 1;
        schemaRetryAt = deps.clock.now().getTime() + backoffMs(schemaFailures);
        throw error;
      },
    );
    return schemaApplied;
  };

  // One warning line a minute at most while reads fail, however many reports ask.
  let lastReadWarning = Number.NEGATIVE_INFINITY;
  const reads: ClickHouseReads = {
    ch: deps.clickhouse,
    onFailure(error) {
      const now = deps.clock.now().getTime();
      if (now - lastReadWarning < 60_000) return;
      lastReadWarning = now;
      deps.log?.warn(
        `ClickHouse did not answer a report (${describeFailure(error)}); PostgreSQL answered it`,
      );
    },
  };

  return {
    clickhouse: deps.clickhouse,
    reads,
    shipper,
    ensureSchema,
    /** One shipping round (the background job's tick). */
    async shipOnce() {
      if (!schemaApplied && deps.clock.now().getTime() < schemaRetryAt) return null;
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
