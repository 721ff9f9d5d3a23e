/**
 * How many rows wait in each of the database's work queues, read at every scrape. Each count is
 * of a partial index's rows (the index the queue's worker claims from), so it costs the backlog,
 * not the table.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

export const QUEUES = [
  'webhook_deliveries',
  'outbox_events',
  'attribution_jobs',
  'privacy_requests',
  'site_erasures',
] as const;
export type Queue = (typeof QUEUES)[number];

export async function readQueueDepths(db: Kysely<DB>, now: Date): Promise<Record<Queue, number>> {
  const { rows } = await sql<Record<Queue, string>>`
    select
      (select count(*) from webhook_deliveries where status in ('pending', 'retrying')) as webhook_deliveries,
      (select count(*) from outbox_events where dispatched_at is null) as outbox_events,
      (select count(*) from attribution_jobs where status = 'pending') as attribution_jobs,
      (select count(*) from privacy_requests where status in ('pending', 'running')) as privacy_requests,
      -- Sites whose deletion window ran out and whose erasure has not begun, and erasures under way.
      (select count(*) from sites where deleted_at is not null and erasure_started_at is null
          and deletion_effective_at <= ${now}::timestamptz)
        + (select count(*) from site_erasures where status = 'running') as site_erasures
  `.execute(db);
  const row = rows[0];
  return Object.fromEntries(QUEUES.map((queue) => [queue, Number(row?.[queue] ?? 0)])) as Record<
    Queue,
    number
  >;
}
