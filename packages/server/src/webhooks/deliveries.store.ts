/**
 * SQL of delivery attempts and the delivery log. A worker claims due deliveries by taking a
 * lease (`locked_by`, `locked_until`) under FOR UPDATE SKIP LOCKED, counting the attempt as it
 * starts; it records the outcome only while it still holds the lease. A worker that dies lets
 * the lease run out and the attempt is made again by another, with the same envelope id.
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import type { DeliveryStatus, WebhookDeliveriesTable, WebhooksTable } from './webhook-tables.js';

type Executor = Kysely<DB> | Transaction<DB>;

/**
 * A leased delivery with what the attempt needs of its endpoint. `failing_since`: the endpoint's
 * current run of failures began then; null when its last attempt succeeded.
 */
export type ClaimedDelivery = Pick<
  Selectable<WebhookDeliveriesTable>,
  'site_id' | 'id' | 'webhook_id' | 'envelope_id' | 'payload' | 'attempt_count'
> &
  Pick<Selectable<WebhooksTable>, 'url' | 'secret_sealed' | 'failing_since'>;

/** Leases up to `limit` due deliveries of enabled endpoints, oldest due first. */
export async function claimDue(
  db: Executor,
  claim: { workerId: string; now: Date; leaseUntil: Date; limit: number; maxAttempts: number },
): Promise<ClaimedDelivery[]> {
  const { workerId, now, leaseUntil, limit, maxAttempts } = claim;
  const result = await sql<ClaimedDelivery>`
    with due as (
      select c.site_id, c.id from webhook_deliveries c
      where c.status in ('pending', 'retrying')
        and c.next_attempt_at <= ${now}
        and (c.locked_until is null or c.locked_until <= ${now})
        and c.attempt_count < ${maxAttempts}
        and exists (select 1 from webhooks e where e.id = c.webhook_id and e.enabled)
      order by c.next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update webhook_deliveries d
    set locked_by = ${workerId}, locked_until = ${leaseUntil},
        attempt_count = d.attempt_count + 1, last_attempt_at = ${now}
    from due, webhooks w
    where d.site_id = due.site_id and d.id = due.id and w.id = d.webhook_id
    returning d.site_id, d.id, d.webhook_id, d.envelope_id, d.payload, d.attempt_count,
      w.url, w.secret_sealed, w.failing_since`.execute(db);
  return result.rows;
}

export interface AttemptRecord {
  status: DeliveryStatus;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
}

/**
 * Writes the outcomes of several attempts in one statement and gives their leases back. Returns
 * the ids it wrote: an attempt whose lease another worker took over is left out.
 */
export async function recordAttempts(
  db: Executor,
  workerId: string,
  records: { site_id: string; id: string; outcome: AttemptRecord }[],
): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const values = sql.join(
    records.map(
      ({ site_id, id, outcome }) =>
        sql`(${site_id}::uuid, ${id}::uuid, ${outcome.status}::text, ${outcome.responseStatus}::integer,
          ${outcome.lastError}::text, ${outcome.nextAttemptAt}::timestamptz)`,
    ),
  );
  const result = await sql<{ id: string }>`
    update webhook_deliveries d
    set status = v.status, response_status = v.response_status, last_error = v.last_error,
        next_attempt_at = v.next_attempt_at, locked_by = null, locked_until = null
    from (values ${values}) as v(site_id, id, status, response_status, last_error, next_attempt_at)
    where d.site_id = v.site_id and d.id = v.id and d.locked_by = ${workerId}
    returning d.id`.execute(db);
  return new Set(result.rows.map((row) => row.id));
}

/** Deliveries whose final attempt was lost with its worker: nothing is left to try. */
export async function failAbandonedFinalAttempts(db: Executor, now: Date, maxAttempts: number) {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'failed',
      next_attempt_at: null,
      locked_by: null,
      locked_until: null,
      last_error: sql`coalesce(last_error || '; ', '') || 'worker stopped during the final attempt'`,
    })
    .where('status', 'in', ['pending', 'retrying'])
    .where('attempt_count', '>=', maxAttempts)
    .where('locked_until', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Newest first; `before` is exclusive and may carry microseconds. */
export function listDeliveries(
  db: Executor,
  webhookId: string,
  page: { limit: number; status?: DeliveryStatus; before?: string },
) {
  let query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .select(
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        'created_at_text',
      ),
    )
    .where('webhook_id', '=', webhookId);
  if (page.status) query = query.where('status', '=', page.status);
  if (page.before) query = query.where('created_at', '<', sql<Date>`${page.before}::timestamptz`);
  return query.orderBy('created_at', 'desc').limit(page.limit).execute();
}

export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

/** Deletes up to `limit` deliveries created before `cutoff`; returns how many went. */
export async function purgeDeliveriesBefore(db: Executor, cutoff: Date, limit: number) {
  const result = await sql`
    delete from webhook_deliveries where (site_id, id) in (
      select site_id, id from webhook_deliveries where created_at < ${cutoff} limit ${limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Outbox facts already fanned out and older than `cutoff`: no delivery needs them any more. */
export async function purgeDispatchedOutboxBefore(db: Executor, cutoff: Date, limit: number) {
  const result = await sql`
    delete from outbox_events where (site_id, id) in (
      select site_id, id from outbox_events
      where dispatched_at is not null and created_at < ${cutoff} limit ${limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
