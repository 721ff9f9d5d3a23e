/**
 * One page of conversions (events of type `event`) for the listing, newest first, with what
 * each row shows beside the event: its visit (the event's own, else the last of the visits that
 * count toward it, identity/identity.ts — the last-touch visit), its top credit under the
 * model, and the exchange rates of its day. Filters and paging run on events alone; the joins
 * run per row of the page only.
 */
import { type Kysely, sql } from 'kysely';
import type { AttributionModel, DB } from '../db/types.js';
import { visitsTowardConversion } from '../identity/identity.sql.js';
import { perEuroOn, rateDayOn } from '../rates/exchange.sql.js';
import { creditedSourceOf } from '../revenue/credited-source.sql.js';

/** Larger stored properties are never sent to the application (the listing nulls them anyway). */
const PROPERTIES_TRANSFER_LIMIT_BYTES = 65_536;

export interface ConversionRow {
  event_id: string;
  occurred_at: Date;
  name: string;
  visitor_id: string | null;
  value_minor: number | null;
  currency: string;
  /** `{}` when none; null when over the transfer limit. */
  properties: Record<string, unknown> | null;
  source_kind: string | null;
  source_name: string | null;
  session_ai_source: string | null;
  country_code: string | null;
  credited_source: string | null;
  credited_share: number | null;
  from_per_euro: number | null;
  to_per_euro: number | null;
  /** The older of the two rates' days; null when neither currency needs one or none is stored. */
  rate_day: string | null;
}

export interface ConversionPageQuery {
  siteId: string;
  siteCurrency: string;
  start: Date;
  end: Date;
  eventName?: string;
  source?: string;
  model: AttributionModel;
  limit: number;
  offset: number;
}

export async function listConversionRows(db: Kysely<DB>, q: ConversionPageQuery): Promise<ConversionRow[]> {
  const byName = q.eventName === undefined ? sql`` : sql`and e.name = ${q.eventName}`;
  const bySource =
    q.source === undefined
      ? sql``
      : sql`and exists (
          select 1 from attribution_credits c
          where c.site_id = e.site_id and c.event_id = e.event_id
            and c.model = ${q.model} and lower(c.source) = lower(${q.source}))`;
  const day = sql`((e.occurred_at at time zone 'UTC')::date)`;
  const visitsBefore = visitsTowardConversion({
    siteId: sql.ref('e.site_id'),
    visitorId: sql.ref('e.visitor_id'),
    personKey: sql.ref('e.person_key'),
    at: sql.ref('e.occurred_at'),
  });
  const { rows } = await sql<ConversionRow>`
    with page as (
      select e.* from events e
      where e.site_id = ${q.siteId} and e.type = 'event'
        and e.occurred_at >= ${q.start} and e.occurred_at < ${q.end}
        ${byName} ${bySource}
      order by e.occurred_at desc, e.event_id desc
      limit ${q.limit} offset ${q.offset}
    )
    select e.event_id, e.occurred_at, e.name, e.visitor_id, e.value_minor,
      coalesce(e.currency, ${q.siteCurrency}) as currency,
      case when e.properties is null then '{}'::jsonb
           when octet_length(e.properties::text) > ${PROPERTIES_TRANSFER_LIMIT_BYTES} then null
           else e.properties end as properties,
      coalesce(own.source_kind, last.source_kind) as source_kind,
      coalesce(own.source_name, last.source_name) as source_name,
      coalesce(own.session_ai_source, last.session_ai_source) as session_ai_source,
      coalesce(own.country_code, last.country_code) as country_code,
      credit.source as credited_source, credit.share as credited_share,
      ${perEuroOn(sql`coalesce(e.currency, ${q.siteCurrency})`, day)} as from_per_euro,
      ${perEuroOn(q.siteCurrency, day)} as to_per_euro,
      least(${rateDayOn(sql`coalesce(e.currency, ${q.siteCurrency})`, day)}, ${rateDayOn(q.siteCurrency, day)}) as rate_day
    from page e
    left join visits own on own.site_id = e.site_id and own.id = e.visit_id
    left join lateral (
      select v.source_kind, v.source_name, v.session_ai_source, v.country_code
      from ${visitsBefore} v
      where e.visit_id is null
      order by v.started_at desc, v.id desc limit 1
    ) last on true
    left join lateral ${creditedSourceOf({ siteId: sql.ref('e.site_id'), eventId: sql.ref('e.event_id'), model: q.model })} credit on true
    order by e.occurred_at desc, e.event_id desc
  `.execute(db);
  return rows;
}
