/**
 * One page of a site's events in a window, newest first (time, then event id in byte order),
 * with the channel and assistant of each event's own visit (a payment's or trial's: the visit its
 * visitor id had open, as the session trail ties them). Pageviews and the other events are
 * read as two branches, each through its own partial index on (site_id, occurred_at) and cut at
 * the limit, then merged: one scan over both row types would read the whole window. Filters and
 * paging run on events alone; properties and the visit are read for the page's rows only.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import type { Instants } from '../reporting/grain.sql.js';
import { VISIT_DIMENSION_SQL } from '../reporting/visit-columns.sql.js';
import { isPaymentOfVisit } from '../visits/visit-conversions.sql.js';
import type { EventCursor } from './event-cursor.js';
import type { Person } from './event-people.js';
import { isEventOfPersonSql, isPageviewOfPersonSql } from './event-people.sql.js';
import { type EventType, PAGEVIEW_NAME } from './event-types.js';
import { EVENT_TYPE_SQL, isEventTypeSql } from './event-types.sql.js';

/** Larger stored properties are never sent to the application (the listing nulls them anyway). */
export const PROPERTIES_TRANSFER_LIMIT_BYTES = 65_536;
const NEWEST_FIRST = sql`order by occurred_at desc, event_id collate "C" desc`;

export interface EventRow {
  event_id: string;
  type: EventType;
  name: string | null;
  occurred_at: Date;
  /** `occurred_at` with microseconds, for the cursor. */
  cursor_at: string;
  visitor_id: string | null;
  person_key: string | null;
  visit_id: string | null;
  /** The page: the path of the event's URL. */
  path: string | null;
  /** Null when none were stored, or when over the transfer limit (`properties_withheld`). */
  properties: Record<string, unknown> | null;
  properties_withheld: boolean;
  value_minor: number | null;
  currency: string | null;
  /** Null exactly when the event has no visit (or it is gone). */
  channel: string | null;
  ai_source: string | null;
}

export interface EventPageQuery extends Instants {
  siteId: string;
  type?: EventType;
  name?: string;
  visitId?: string;
  person?: Person;
  /** A condition over the event's visit `v` (a payment's open visit); events without one never match. */
  visitCondition?: RawBuilder<boolean>;
  before?: EventCursor;
  limit: number;
}

export type RowType = 'pageview' | 'event';

/** The stored row types the filters admit: pageviews have no stored name and are not `event` rows. */
export function rowTypesOf(q: Pick<EventPageQuery, 'type' | 'name'>): RowType[] {
  const byType = q.type === undefined ? null : q.type === 'pageview' ? 'pageview' : 'event';
  const byName = q.name === undefined ? null : q.name === PAGEVIEW_NAME ? 'pageview' : 'event';
  return (['pageview', 'event'] as const).filter((t) => (byType ?? t) === t && (byName ?? t) === t);
}

function conditions(q: EventPageQuery, rowType: RowType): RawBuilder<boolean>[] {
  // Literals, so the planner matches the partial indexes on `type`.
  const all = [rowType === 'pageview' ? sql<boolean>`e.type = 'pageview'` : sql<boolean>`e.type = 'event'`];
  if (q.type) all.push(isEventTypeSql(q.type));
  if (q.name !== undefined && q.name !== PAGEVIEW_NAME) all.push(sql`e.name = ${q.name}`);
  if (q.visitId) {
    all.push(
      rowType === 'pageview'
        ? sql`e.visit_id = ${q.visitId}`
        : sql`(e.visit_id = ${q.visitId} or exists (select 1 from visits v
            where v.site_id = e.site_id and v.id = ${q.visitId} and ${isPaymentOfVisit('e')}))`,
    );
  }
  if (q.person) {
    all.push(
      rowType === 'pageview'
        ? isPageviewOfPersonSql(q.siteId, q.person)
        : isEventOfPersonSql(q.siteId, q.person),
    );
  }
  if (q.visitCondition) {
    all.push(sql`(exists (select 1 from visits v
      where v.site_id = e.site_id and v.id = e.visit_id and ${q.visitCondition})
      ${
        rowType === 'pageview'
          ? sql``
          : sql`or exists (select 1 from visits v
        where v.site_id = e.site_id and v.visitor_id = e.visitor_id and v.started_at <= e.occurred_at
          and ${isPaymentOfVisit('e')} and ${q.visitCondition})`
      })`);
  }
  if (q.before) {
    // Spelled so that the time bound can narrow the index scan.
    const at = sql`${q.before.at}::timestamptz`;
    all.push(sql`e.occurred_at <= ${at}
      and (e.occurred_at < ${at} or e.event_id collate "C" < ${q.before.eventId})`);
  }
  return all;
}

function branch(q: EventPageQuery, rowType: RowType) {
  const where = conditions(q, rowType).map((condition) => sql`and ${condition}`);
  return sql`(
    select e.event_id, ${EVENT_TYPE_SQL} as type, e.name, e.occurred_at, e.visitor_id, e.person_key,
      e.visit_id, e.path, e.value_minor, e.currency
    from events e
    where e.site_id = ${q.siteId} and e.occurred_at >= ${q.start} and e.occurred_at < ${q.end}
      ${sql.join(where, sql` `)}
    ${NEWEST_FIRST}
    limit ${q.limit}
  )`;
}

/** A page of the query's rows (of `rowTypes` only, when given). */
export async function listEventRows(
  db: Kysely<DB>,
  q: EventPageQuery,
  rowTypes: RowType[] = rowTypesOf(q),
): Promise<EventRow[]> {
  const branches = rowTypesOf(q)
    .filter((rowType) => rowTypes.includes(rowType))
    .map((rowType) => branch(q, rowType));
  if (branches.length === 0) return [];
  const { rows } = await sql<EventRow>`
    with page as (
      select * from (${sql.join(branches, sql` union all `)}) merged
      ${NEWEST_FIRST}
      limit ${q.limit}
    )
    select e.event_id, e.type, e.name, e.occurred_at, e.visitor_id, e.person_key, v.id as visit_id,
      e.path, e.value_minor, e.currency,
      to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
      coalesce(octet_length(stored.properties::text) > ${PROPERTIES_TRANSFER_LIMIT_BYTES}, false)
        as properties_withheld,
      case when octet_length(stored.properties::text) <= ${PROPERTIES_TRANSFER_LIMIT_BYTES}
        then stored.properties end as properties,
      ${VISIT_DIMENSION_SQL['visit:channel']} as channel,
      ${VISIT_DIMENSION_SQL['visit:ai_source']} as ai_source
    from page e
    join events stored on stored.site_id = ${q.siteId} and stored.event_id = e.event_id
    left join lateral (
      select v.* from visits v where v.site_id = ${q.siteId} and v.id = e.visit_id
      union all
      -- A payment or trial joins the visit its visitor id had open (visits/visit-conversions.sql.ts).
      select v.* from visits v
      where e.visit_id is null and v.site_id = ${q.siteId} and v.visitor_id = stored.visitor_id
        and v.started_at <= stored.occurred_at and ${isPaymentOfVisit('stored')}
      limit 1
    ) v on true
    order by e.occurred_at desc, e.event_id collate "C" desc
  `.execute(db);
  return rows;
}
