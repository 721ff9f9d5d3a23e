/**
 * The SQL of refused-hit counts (ingest_refusals, site-refusals.ts): one upsert per refusal at
 * ingest, the sum over the last hour, and the deletion of counts older than a week.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { DAY_MS } from '../lib/clock.js';
import { PERIOD_MS, REFUSALS_KEPT_DAYS, REFUSALS_WINDOW_MS, type RefusalReason } from './refusal-limits.js';

const periodOf = (at: Date) => new Date(Math.floor(at.getTime() / PERIOD_MS) * PERIOD_MS);

/** Counts one refused hit for the site behind `snippetKey`; an unknown or deleted site counts nothing. */
export async function countRefusal(
  db: Kysely<DB>,
  input: { snippetKey: string; reason: RefusalReason; at: Date },
): Promise<void> {
  await sql`
    insert into ingest_refusals (site_id, period_start, reason, hits)
    select id, ${periodOf(input.at)}, ${input.reason}, 1 from sites
    where snippet_key = ${input.snippetKey} and deleted_at is null
    on conflict (site_id, period_start, reason) do update set hits = ingest_refusals.hits + 1
  `.execute(db);
}

/** The refused hits of the last hour (to the period), by reason; reasons with none are left out. */
export async function recentRefusals(
  db: Kysely<DB>,
  siteId: string,
  now: Date,
): Promise<{ reason: RefusalReason; hits: number }[]> {
  const since = periodOf(new Date(now.getTime() - REFUSALS_WINDOW_MS + PERIOD_MS));
  const rows = await db
    .selectFrom('ingest_refusals')
    .select(['reason', (eb) => eb.fn.sum<string>('hits').as('hits')])
    .where('site_id', '=', siteId)
    .where('period_start', '>=', since)
    .groupBy('reason')
    .orderBy('reason')
    .execute();
  return rows.map((row) => ({ reason: row.reason as RefusalReason, hits: Number(row.hits) }));
}

/**
 * Deletes the counts of periods that began more than `REFUSALS_KEPT_DAYS` ago, in batches. Two
 * processes running it at once delete disjoint or already-deleted rows: nothing needs a lease.
 */
export async function deleteOldRefusals(
  db: Kysely<DB>,
  now: Date,
  { batchSize = 1000, maxBatches = 500 } = {},
): Promise<{ deleted: number; finished: boolean }> {
  const cutoff = new Date(now.getTime() - REFUSALS_KEPT_DAYS * DAY_MS);
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const result = await sql`
      delete from ingest_refusals where (site_id, period_start, reason) in (
        select site_id, period_start, reason from ingest_refusals
        where period_start < ${cutoff} limit ${batchSize})`.execute(db);
    const count = Number(result.numAffectedRows ?? 0);
    deleted += count;
    if (count < batchSize) return { deleted, finished: true };
  }
  return { deleted, finished: false };
}
