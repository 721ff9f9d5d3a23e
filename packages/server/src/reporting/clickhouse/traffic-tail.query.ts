/**
 * The PostgreSQL half of a ClickHouse read: a site's traffic rows not yet copied, read in one
 * snapshot with the cursors, so that what ClickHouse holds up to the cursors and these rows
 * together are the site's traffic at that moment (DESIGN.md §13).
 */
import type { Kysely } from 'kysely';
import { pendingDeletedKeys, readUnshipped } from '../../clickhouse/ship-batches.query.js';
import type { DB } from '../../db/types.js';
import { withReadMemory } from '../grouped.query.js';

/**
 * More unshipped rows of one site than this (the shipper is far behind, or ClickHouse away): the
 * read is not sent to ClickHouse, and PostgreSQL answers.
 */
export const MAX_TAIL_ROWS = 20_000;

export type TailTable = 'events' | 'visits' | 'identity_links' | 'crawler_hits';

export interface TrafficTail {
  /** Each table's rows not yet copied. */
  rows: Record<TailTable, Record<string, unknown>[]>;
  /** Keys of rows deleted in PostgreSQL whose deletion ClickHouse may not have applied yet. */
  deleted: Record<TailTable, string[]>;
}

const TABLES: TailTable[] = ['events', 'visits', 'identity_links', 'crawler_hits'];

export function readTrafficTail(db: Kysely<DB>, siteId: string): Promise<TrafficTail | null> {
  return withReadMemory(
    db,
    async (trx) => {
      const tail: TrafficTail = {
        rows: { events: [], visits: [], identity_links: [], crawler_hits: [] },
        deleted: { events: [], visits: [], identity_links: [], crawler_hits: [] },
      };
      for (const table of TABLES) {
        const rows = await readUnshipped(trx, table, siteId, MAX_TAIL_ROWS);
        const deleted = await pendingDeletedKeys(trx, table, siteId, MAX_TAIL_ROWS);
        if (!rows || !deleted) return null;
        tail.rows[table] = rows;
        tail.deleted[table] = deleted;
      }
      return tail;
    },
    { snapshot: true },
  );
}
