/**
 * The trail of one visit: its pageviews and its conversions (visit-conversions.sql.ts) in time
 * order, at most `limit` of them. Engagement and identify rows are not steps of the trail. Each
 * pageview carries when the next one came (over the whole visit, before the limit), from which
 * its time on the page is worked out.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { conversionsOfVisit } from './visit-conversions.sql.js';

/** Larger stored properties are never sent to the application (the trail nulls them anyway). */
export const PROPERTIES_TRANSFER_LIMIT_BYTES = 65_536;

export interface TrailRow {
  event_id: string;
  type: 'pageview' | 'event';
  name: string | null;
  origin: 'browser' | 'server';
  is_payment: boolean;
  occurred_at: Date;
  page: string | null;
  /** Null when none were stored, or over the transfer limit. */
  properties: Record<string, unknown> | null;
  is_oversized: boolean;
  value_minor: number | null;
  currency: string | null;
  /** Pageviews: the next pageview's time, null for the last. */
  next_pageview_at: Date | null;
}

/** A trail row's columns over the steps `t` of the visit `v`, but the next pageview's time. */
const STEP_COLUMNS = sql`t.event_id, t.type, t.name, t.origin, t.is_payment, t.occurred_at,
  t.path as page,
  case when octet_length(t.properties::text) > ${PROPERTIES_TRANSFER_LIMIT_BYTES} then null
    else t.properties end as properties,
  coalesce(octet_length(t.properties::text) > ${PROPERTIES_TRANSFER_LIMIT_BYTES}, false) as is_oversized,
  t.value_minor::float8 as value_minor, t.currency`;

const CONVERSIONS = sql`select c.event_id, c.type, c.name, c.origin, c.is_payment, c.occurred_at, c.path,
    c.properties, c.value_minor, c.currency
  from ${conversionsOfVisit()} c`;

const withNumbers = (rows: TrailRow[]) =>
  rows.map((row) => ({ ...row, value_minor: row.value_minor === null ? null : Number(row.value_minor) }));

// Event ids compare bytewise (collate "C"), as ClickHouse compares them, whatever the database's collation.
export async function listTrailRows(
  db: Kysely<DB>,
  q: { siteId: string; visitId: string; limit: number },
): Promise<TrailRow[]> {
  const { rows } = await sql<TrailRow>`
    select ${STEP_COLUMNS},
      case when t.type = 'pageview' then lead(t.occurred_at) over (
        partition by t.type = 'pageview' order by t.occurred_at, t.event_id collate "C"
      ) end as next_pageview_at
    from visits v
    cross join lateral (
      select e.event_id, e.type, e.name, e.origin, false as is_payment, e.occurred_at, e.path,
        e.properties, e.value_minor, e.currency
      from events e
      where e.site_id = v.site_id and e.visit_id = v.id and e.type = 'pageview'
      union all
      ${CONVERSIONS}
    ) t
    where v.site_id = ${q.siteId} and v.id = ${q.visitId}
    order by t.occurred_at, t.type <> 'pageview', t.event_id collate "C"
    limit ${q.limit}
  `.execute(db);
  return withNumbers(rows);
}

/** The first `limit` conversions of the trail alone, in its order (for pageviews read from ClickHouse). */
export async function listTrailConversions(
  db: Kysely<DB>,
  q: { siteId: string; visitId: string; limit: number },
): Promise<TrailRow[]> {
  const { rows } = await sql<TrailRow>`
    select ${STEP_COLUMNS}, null::timestamptz as next_pageview_at
    from visits v
    cross join lateral (${CONVERSIONS}) t
    where v.site_id = ${q.siteId} and v.id = ${q.visitId}
    order by t.occurred_at, t.event_id collate "C"
    limit ${q.limit}
  `.execute(db);
  return withNumbers(rows);
}
