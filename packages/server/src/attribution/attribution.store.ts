/**
 * SQL of the attribution worker: claiming jobs, reading a conversion and the person's visits,
 * writing credits (read back by stored-credits.query.ts) and the outbox fact, and finishing or
 * retrying the job. Every function runs inside the job's transaction; writes are idempotent
 * (conflicts do nothing).
 */
import { type Insertable, type Selectable, sql, type Transaction } from 'kysely';
import type { OutboxEventsTable, VisitsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';
import { visitsTowardConversion } from '../identity/identity.sql.js';
import type { Touchpoint } from './models.js';
import type { CreditRow } from './stored-credits.query.js';

export type { CreditRow } from './stored-credits.query.js';

type Trx = Transaction<DB>;

/** The oldest due pending job, locked for this transaction; jobs other workers hold are skipped. */
export function claimDueJob(trx: Trx, now: Date) {
  return trx
    .selectFrom('attribution_jobs')
    .select(['site_id', 'event_id', 'attempts'])
    .where('status', '=', 'pending')
    .where('run_after', '<=', now)
    .orderBy('run_after')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export type ClaimedJob = NonNullable<Awaited<ReturnType<typeof claimDueJob>>>;

/** The conversion event with what the outbox fact needs of its site. */
export function loadConversion(trx: Trx, siteId: string, eventId: string) {
  return trx
    .selectFrom('events as e')
    .innerJoin('sites as s', 's.id', 'e.site_id')
    .select([
      'e.event_id',
      'e.name',
      'e.visitor_id',
      'e.person_key',
      'e.occurred_at',
      'e.value_minor',
      'e.currency',
      's.snippet_key',
      's.currency as site_currency',
    ])
    .where('e.site_id', '=', siteId)
    .where('e.event_id', '=', eventId)
    .where('e.type', '=', 'event')
    .executeTakeFirst();
}

/** The visits that count toward a conversion at `at` (identity/identity.ts). */
export async function loadTouchpoints(
  trx: Trx,
  siteId: string,
  conversion: { visitorId: string | null; personKey: string | null; at: Date },
): Promise<Touchpoint[]> {
  const { rows } = await sql<
    Pick<Selectable<VisitsTable>, 'id' | 'session_ai_source' | 'source_kind' | 'started_at'>
  >`
    select id, session_ai_source, source_kind, started_at
    from ${visitsTowardConversion({ siteId, ...conversion })} v
  `.execute(trx);
  return rows.map((row) => ({
    visitId: row.id,
    source: row.session_ai_source,
    sourceKind: row.source_kind,
    startedAt: new Date(row.started_at),
  }));
}

export async function insertCredits(trx: Trx, siteId: string, eventId: string, credits: CreditRow[]) {
  if (credits.length === 0) return;
  await trx
    .insertInto('attribution_credits')
    .values(credits.map((credit) => ({ site_id: siteId, event_id: eventId, ...credit })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function insertOutboxEvent(
  trx: Trx,
  row: Omit<Insertable<OutboxEventsTable>, 'payload'> & { payload: object },
) {
  await trx
    .insertInto('outbox_events')
    .values({ ...row, payload: JSON.stringify(row.payload) })
    .onConflict((oc) => oc.columns(['site_id', 'type', 'dedupe_key']).doNothing())
    .execute();
}

export async function finishJob(trx: Trx, job: ClaimedJob, now: Date) {
  await trx
    .updateTable('attribution_jobs')
    .set({ status: 'done', attempts: job.attempts + 1, finished_at: now, last_error: null })
    .where('site_id', '=', job.site_id)
    .where('event_id', '=', job.event_id)
    .execute();
}

/** Counts a failed attempt: back to pending for `runAfter`, or `failed` for good. */
export async function recordFailure(
  trx: Trx,
  job: ClaimedJob,
  outcome: { attempts: number; isFinal: boolean; runAfter: Date; error: string; now: Date },
) {
  await trx
    .updateTable('attribution_jobs')
    .set({
      status: outcome.isFinal ? 'failed' : 'pending',
      attempts: outcome.attempts,
      run_after: outcome.runAfter,
      last_error: outcome.error,
      finished_at: outcome.isFinal ? outcome.now : null,
    })
    .where('site_id', '=', job.site_id)
    .where('event_id', '=', job.event_id)
    .execute();
}
