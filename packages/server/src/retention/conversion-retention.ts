/**
 * Retention of conversion records (interface §8): an event-type row, with its properties, is
 * kept 365 days from when it happened, then deleted. A backdated record (a payment history
 * imported today) is also kept 365 days from when it was received, so it is attributed and
 * counted in the daily totals before it can go. Pageviews and the rest of the event-grain
 * tables are kept, and so are the daily totals, attribution credits and payments: reports over
 * older days still read them; only the listing of single conversions and the reports read from
 * single events (properties, visitors) stop reaching further back than a year, which is also
 * their longest window.
 *
 * The purge walks the sites one at a time through the partial index on (site_id, occurred_at)
 * of event-type rows, in bounded delete statements, so no run holds a long lock; running it
 * twice, or from two processes at once, is harmless.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';

export const CONVERSION_RETENTION_DAYS = 365;

export interface RetentionRunOptions {
  /** Rows per delete statement. */
  batchSize?: number;
  /** Delete statements per run, across all sites; the rest waits for the next run. */
  maxBatches?: number;
}

export function createConversionRetention({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  /** Deletes up to `limit` expired conversion rows of one site; returns how many went. */
  async function purgeBatch(siteId: string, cutoff: Date, limit: number): Promise<number> {
    const result = await sql`
      delete from events where site_id = ${siteId} and event_id in (
        select event_id from events
        where site_id = ${siteId} and type = 'event' and occurred_at < ${cutoff} and received_at < ${cutoff}
        limit ${limit}
      )`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** Where an unfinished run stopped: the next run starts after this site, so every site gets its turn. */
  let resumeAfter: string | null = null;

  return {
    /**
     * One run over the sites, from where the last unfinished run stopped. Returns how many
     * conversion rows went, and whether the run reached the last site.
     */
    async purgeExpiredConversions({ batchSize = 1000, maxBatches = 500 }: RetentionRunOptions = {}) {
      const cutoff = new Date(clock.now().getTime() - CONVERSION_RETENTION_DAYS * DAY_MS);
      const after = resumeAfter;
      const sites = await db
        .selectFrom('sites')
        .select('id')
        .$if(after !== null, (query) => query.where('id', '>', after as string))
        .orderBy('id')
        .execute();
      let budget = maxBatches;
      let deleted = 0;
      for (const site of sites) {
        for (;;) {
          if (budget === 0) return { deleted, finished: false };
          budget--;
          const count = await purgeBatch(site.id, cutoff, batchSize);
          deleted += count;
          if (count < batchSize) break;
        }
        resumeAfter = site.id;
      }
      resumeAfter = null;
      return { deleted, finished: true };
    },
  };
}
