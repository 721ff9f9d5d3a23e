/**
 * A retention purge that walks the sites one at a time and deletes each site's expired rows in
 * bounded statements, so no run holds a long lock or one huge transaction. A run that uses up
 * its budget resumes after the last site it finished, so every site gets its turn; running it
 * twice, or from two processes at once, is harmless.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';

export interface RetentionRunOptions {
  /** Rows per delete statement. */
  batchSize?: number;
  /** Delete statements per run, across all sites; the rest waits for the next run. */
  maxBatches?: number;
}

export interface RetentionRun {
  deleted: number;
  /** Whether the run reached the last site. */
  finished: boolean;
}

/**
 * Rows of `table` (with `site_id`, `occurred_at` and `received_at`) go once both times are
 * `retentionDays` old: a row backdated on arrival is still kept that long from when it came.
 * `only` narrows the rows that expire; `key` names the rest of the table's primary key.
 */
export function createSitePurge(deps: {
  db: Kysely<DB>;
  clock: Clock;
  table: 'events' | 'crawler_hits';
  key: string;
  only?: RawBuilder<unknown>;
  retentionDays: number;
}): (options?: RetentionRunOptions) => Promise<RetentionRun> {
  const table = sql.table(deps.table);
  const key = sql.ref(deps.key);
  const only = deps.only ?? sql`true`;
  let resumeAfter: string | null = null;

  /** Deletes up to `limit` expired rows of one site; returns how many went. */
  async function purgeBatch(siteId: string, cutoff: Date, limit: number): Promise<number> {
    const result = await sql`
      delete from ${table} where site_id = ${siteId} and ${key} in (
        select ${key} from ${table}
        where site_id = ${siteId} and ${only} and occurred_at < ${cutoff} and received_at < ${cutoff}
        limit ${limit}
      )`.execute(deps.db);
    return Number(result.numAffectedRows ?? 0);
  }

  return async ({ batchSize = 1000, maxBatches = 500 } = {}) => {
    const cutoff = new Date(deps.clock.now().getTime() - deps.retentionDays * DAY_MS);
    const after = resumeAfter;
    const sites = await deps.db
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
  };
}
