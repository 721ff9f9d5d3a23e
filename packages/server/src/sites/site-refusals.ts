/**
 * The one home of refused-hit counts (ingest_refusals): per site, five-minute period and
 * reason, one upsert per refusal at ingest, read back as the sum over the last hour.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { HOUR_MS } from '../lib/clock.js';

export type RefusalReason = 'bot';

const PERIOD_MS = 5 * 60 * 1000;
/** How far back the site views count refusals. */
export const REFUSALS_WINDOW_MS = HOUR_MS;

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
