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

export interface TrafficTail {
  events: Record<string, unknown>[];
  visits: Record<string, unknown>[];
  links: Record<string, unknown>[];
  /** Keys of rows deleted in PostgreSQL whose deletion ClickHouse may not have applied yet. */
  deleted: Record<'events' | 'visits' | 'identity_links', string[]>;
}

export function readTrafficTail(db: Kysely<DB>, siteId: string): Promise<TrafficTail | null> {
  return withReadMemory(
    db,
    async (trx) => {
      const events = await readUnshipped(trx, 'events', siteId, MAX_TAIL_ROWS);
      const visits = await readUnshipped(trx, 'visits', siteId, MAX_TAIL_ROWS);
      const links = await readUnshipped(trx, 'identity_links', siteId, MAX_TAIL_ROWS);
      const deleted = {
        events: await pendingDeletedKeys(trx, 'events', siteId, MAX_TAIL_ROWS),
        visits: await pendingDeletedKeys(trx, 'visits', siteId, MAX_TAIL_ROWS),
        identity_links: await pendingDeletedKeys(trx, 'identity_links', siteId, MAX_TAIL_ROWS),
      };
      if (!events || !visits || !links || !deleted.events || !deleted.visits || !deleted.identity_links)
        return null;
      return {
        events,
        visits,
        links,
        deleted: { events: deleted.events, visits: deleted.visits, identity_links: deleted.identity_links },
      };
    },
    { snapshot: true },
  );
}
