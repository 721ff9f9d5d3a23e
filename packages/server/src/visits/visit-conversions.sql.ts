/**
 * The conversions of a visit, as one SQL table expression every session query composes (the
 * count, `converted`, revenue, the trail). A conversion is an events row of type `event`, as in
 * the conversion listing (interface §2.8): a custom or server event, a payment or a trial.
 *
 * Custom and server events carry the visit they joined at ingest (`visit_id`). A payment's
 * conversion carries none: the payments endpoint records it outside the visit rules. It belongs to
 * the visit its visitor id had open when it was paid, by the rule a server event joins a visit
 * (sql/ingest/05_visits.sql): the visitor's latest visit started at or before the payment, if that
 * visit's last activity is at most `touchtrail_visit_idle()` (30 minutes) before it. A payment
 * sent with only an email joins no visit, as a server event without a visitor id joins none.
 */
import { type RawBuilder, sql } from 'kysely';

/** How long a visit stays open after its last activity: the SQL function the visit rules own. */
const IDLE = sql`touchtrail_visit_idle()`;

/**
 * The events rows that are conversions of the visit `v` of the outer query: every column, and
 * `is_payment` for the payments and trials. Each branch is an index probe: events_visit_idx for
 * the visit's own events, events_visitor_idx (site_id, visitor_id, occurred_at) for its payments.
 */
export function conversionsOfVisit(): RawBuilder<unknown> {
  return sql`(
    select e.*, false as is_payment from events e
    where e.site_id = v.site_id and e.visit_id = v.id and e.type = 'event'
    union all
    select e.*, true as is_payment from events e
    where ${isPaymentOfVisit('e')}
  )`;
}

/**
 * A payment or trial conversion (reserved names that only the payments endpoint writes,
 * goals/goal-names.ts) paid while `v` was its visitor id's open visit. A condition on the events
 * row `alias`.
 */
export function isPaymentOfVisit(alias: string): RawBuilder<boolean> {
  const e = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<boolean>`(
    ${e('site_id')} = v.site_id and ${e('visitor_id')} = v.visitor_id and ${e('type')} = 'event'
      and ${e('visit_id')} is null and ${e('origin')} = 'server' and ${e('name')} in ('payment', 'trial')
      and ${e('occurred_at')} >= v.started_at
      and ${e('occurred_at')} <= v.last_activity_at + ${IDLE}
      and not exists (
        select 1 from visits later
        where later.site_id = v.site_id and later.visitor_id = v.visitor_id
          and later.started_at <= ${e('occurred_at')}
          and (later.started_at, later.id) > (v.started_at, v.id)
      )
  )`;
}
