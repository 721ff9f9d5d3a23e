/**
 * Which stored rows are about the person a request resolved to: the one owner of that rule, so
 * matching, access exports and erasure all read the same rows. The person is the request's
 * scope (privacy_request_scope): visitor ids, person keys and customer ids. Every predicate
 * reads the scope by subquery, so no list of ids travels in the SQL.
 */
import { type RawBuilder, sql } from 'kysely';
import type { ScopeKind } from '../db/privacy-types.js';

export interface RequestRef {
  requestId: string;
  siteId: string;
}

const inScope = (ref: RequestRef, kind: ScopeKind) =>
  sql`(select s.value from privacy_request_scope s where s.request_id = ${ref.requestId} and s.kind = ${kind})`;

const paymentsOf = (ref: RequestRef) =>
  sql`payments.site_id = ${ref.siteId} and (payments.visitor_id in ${inScope(ref, 'visitor')}
    or payments.person_key in ${inScope(ref, 'person_key')}
    or payments.customer_id in ${inScope(ref, 'customer')})`;

/** Predicates over each table's rows, for the table aliased as its own name. */
export const personRows = {
  visitors: (ref: RequestRef) =>
    sql`visitors.site_id = ${ref.siteId} and visitors.visitor_id in ${inScope(ref, 'visitor')}`,
  visits: (ref: RequestRef) =>
    sql`visits.site_id = ${ref.siteId} and visits.visitor_id in ${inScope(ref, 'visitor')}`,
  // Browser events belong to a visit; server events carry the visitor id or person key. Three
  // selects, each on its own index, rather than one OR that no index serves.
  events: (ref: RequestRef) =>
    sql`events.site_id = ${ref.siteId} and events.event_id in (
      select e.event_id from events e where e.site_id = ${ref.siteId}
        and e.visit_id in (select v.id from visits v
          where v.site_id = ${ref.siteId} and v.visitor_id in ${inScope(ref, 'visitor')})
      union
      select e.event_id from events e where e.site_id = ${ref.siteId} and e.type = 'event'
        and e.visitor_id in ${inScope(ref, 'visitor')}
      union
      select e.event_id from events e where e.site_id = ${ref.siteId}
        and e.person_key in ${inScope(ref, 'person_key')})`,
  identity_links: (ref: RequestRef) =>
    sql`identity_links.site_id = ${ref.siteId} and (identity_links.visitor_id in ${inScope(ref, 'visitor')}
      or identity_links.person_key in ${inScope(ref, 'person_key')})`,
  payments: (ref: RequestRef) => paymentsOf(ref),
  refunds: (ref: RequestRef): RawBuilder<unknown> =>
    sql`refunds.site_id = ${ref.siteId} and refunds.payment_id in (
      select payments.id from payments where ${paymentsOf(ref)})`,
} satisfies Record<string, (ref: RequestRef) => RawBuilder<unknown>>;

export type PersonTable = keyof typeof personRows & string;

/** A payment's own conversion event: it stays with its payment, detached from the person. */
export const isPaymentEvent = sql`exists (select 1 from payments p
  where p.site_id = events.site_id and p.event_id = events.event_id)`;

/** The person's events other than payment conversions: what erasure deletes. */
export const ownEvents = (ref: RequestRef) => sql`${personRows.events(ref)} and not ${isPaymentEvent}`;

/** Event ids of the person's conversions (goal events and payments): what attribution and webhooks name. */
export const personEventIds = (ref: RequestRef) => sql`(
  select events.event_id from events where ${personRows.events(ref)} and events.type = 'event'
  union all
  select payments.event_id from payments where ${personRows.payments(ref)})`;

/** Ids of the person's visits: what `ai_session.classified` names. */
export const personVisitIds = (ref: RequestRef) =>
  sql`(select visits.id::text from visits where ${personRows.visits(ref)})`;
