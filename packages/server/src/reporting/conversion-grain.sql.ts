/**
 * Conversion metrics over conversion events (`events` rows of type `event`: custom, server and
 * payment events, as the conversion listing counts them), with or without a visit, bucketed by
 * when they happened. Visit dimensions read the event's own visit (null without one), except
 * the source dimensions, which read whom attribution credited (CREDITED_SQL).
 */
import { type RawBuilder, sql } from 'kysely';
import type { AttributionModel } from '../db/types.js';
import { PAYMENT_EVENT_NAMES } from '../goals/goal-names.js';
import { DIRECT_SOURCE } from '../revenue/credited-source.js';
import { creditedSourceOf } from '../revenue/credited-source.sql.js';
import { eventDimensionSql, filterSql } from './filter.sql.js';
import { filteredDimensions, type GrainQuery, personJoin, rangeEnd, rangeStart } from './grain.sql.js';
import type { Grouped } from './grouped.query.js';
import {
  isEventDimension,
  isTimeDimension,
  isVisitDimension,
  type VisitDimension,
} from './stats-vocabulary.js';
import { personSql, timeBucketSql, VISIT_DIMENSION_SQL } from './visit-columns.sql.js';

/** `converters`: people with a conversion during a visit, the numerator of `conversion_rate`. */
export type ConversionCount = 'events' | 'conversions' | 'visitors' | 'converters';

/** Events the product records itself for payments: conversions, but not events a site sent. */
export const SITE_SENT = sql`e.name not in (${sql.join(PAYMENT_EVENT_NAMES.map((name) => sql.lit(name)))})`;
/** The person of a conversion event `e` (with the `pl` join of personJoin). */
export const PERSON = personSql(sql`e.visitor_id`, sql`e.person_key`);

/** Counts read straight from the events, when no people are counted. */
type PlainCount = Exclude<ConversionCount, 'visitors' | 'converters'>;
const PLAIN_SQL: Record<PlainCount, RawBuilder<number>> = {
  events: sql`count(*) filter (where ${SITE_SENT})::float8`,
  conversions: sql`count(*)::float8`,
};
const isPlain = (counts: ConversionCount[]): counts is PlainCount[] =>
  counts.every((name) => name === 'events' || name === 'conversions');

/** A conversion grain's query: the attribution model names whom a conversion's source credits. */
export type ConversionQuery = GrainQuery & { model?: AttributionModel };

/**
 * A conversion counts for the source attribution credits it to, as its revenue does: under
 * linear and time_decay the one with the largest share, as the conversion listing shows it
 * (`credit`, joined by creditJoin). Before its attribution has run it counts for its own visit;
 * with neither, it is direct.
 */
const CREDITED_SQL = {
  'visit:channel': sql<string | null>`case
    when credit.source is not null then case when credit.source_kind = 'ai' then 'ai' else credit.source end
    when v.id is not null then ${VISIT_DIMENSION_SQL['visit:channel']}
    else ${sql.lit(DIRECT_SOURCE)} end`,
  'visit:ai_source': sql<string | null>`case
    when credit.source is not null then case when credit.source_kind = 'ai' then credit.source end
    else ${VISIT_DIMENSION_SQL['visit:ai_source']} end`,
  'visit:source_kind': sql<string | null>`coalesce(credit.source_kind, v.source_kind, 'non_ai')`,
} as const satisfies Partial<Record<VisitDimension, RawBuilder<string | null>>>;

const readsCredit = (q: GrainQuery) =>
  [...q.dimensions, ...filteredDimensions(q)].some((name) => name in CREDITED_SQL);

const creditJoin = (q: ConversionQuery) => {
  if (!q.model) throw new Error('a conversion by source needs an attribution model');
  const credited = creditedSourceOf({
    siteId: sql.ref('e.site_id'),
    eventId: sql.ref('e.event_id'),
    model: q.model,
  });
  return sql`left join lateral ${credited} credit on true`;
};

const visitColumnsOf = (q: GrainQuery) =>
  readsCredit(q) ? { ...VISIT_DIMENSION_SQL, ...CREDITED_SQL } : VISIT_DIMENSION_SQL;

function conversionRows(q: ConversionQuery, people: boolean) {
  return sql`
    from events e
    left join visits v on v.site_id = e.site_id and v.id = e.visit_id
    ${readsCredit(q) ? creditJoin(q) : sql``}
    ${people ? personJoin(q, 'e.visitor_id') : sql``}
    where e.site_id = ${q.siteId} and e.type = 'event'
      and e.occurred_at >= ${rangeStart(q)} and e.occurred_at < ${rangeEnd(q)}
      and ${filterSql({ op: 'and', filters: q.filters }, 'conversions', visitColumnsOf(q))}`;
}

function dimensionsOf(q: GrainQuery) {
  const visitColumns = visitColumnsOf(q);
  return q.dimensions.map((name) => {
    if (isTimeDimension(name)) return timeBucketSql(name, q.timezone, sql`e.occurred_at`);
    if (isVisitDimension(name)) return visitColumns[name];
    if (isEventDimension(name)) return eventDimensionSql(name, 'e');
    throw new Error(`conversion grain asked for ${name}`);
  });
}

/** The counts summed from one row per group and person (`pp`), as `conversionCounts` reads them. */
const PER_PERSON_SQL: Record<ConversionCount, RawBuilder<number>> = {
  events: sql`coalesce(sum(pp.events), 0)::float8`,
  conversions: sql`coalesce(sum(pp.conversions), 0)::float8`,
  visitors: sql`count(*)::float8`,
  converters: sql`(count(*) filter (where pp.in_visit))::float8`,
};

/**
 * One row per group and person: the group's dimensions as `g0`…, `person`, the person's
 * `events` and `conversions`, and `in_visit` (one of them happened during a visit).
 */
export function conversionsPerPersonSql(q: ConversionQuery) {
  const groupColumns = dimensionsOf(q).map((dimension, i) => sql`${dimension} as ${sql.ref(`g${i}`)}`);
  const positions = sql.raw([...Array(q.dimensions.length + 1).keys()].map((i) => i + 1).join(', '));
  return sql`
    select ${sql.join([...groupColumns, sql`${PERSON} as person`])},
      count(*) filter (where ${SITE_SENT}) as events, count(*) as conversions,
      bool_or(e.visit_id is not null) as in_visit
    ${conversionRows(q, true)}
    group by ${positions}`;
}

/**
 * When people are counted, the events are first grouped per group and person and the counts
 * summed from those rows: PostgreSQL hashes that grouping where `count(distinct person)` sorts
 * every event (a year of a large site's goals: 0.36 s against 0.47 s, bench/RESULTS.md).
 */
export function conversionCounts(q: ConversionQuery, counts: ConversionCount[]): Grouped {
  if (isPlain(counts)) {
    return {
      rows: conversionRows(q, false),
      dimensions: dimensionsOf(q),
      metrics: counts.map((name) => PLAIN_SQL[name]),
    };
  }
  return {
    rows: sql`from (${conversionsPerPersonSql(q)}) pp`,
    dimensions: q.dimensions.map((_, i) => sql.ref(`pp.g${i}`)),
    metrics: counts.map((name) => PER_PERSON_SQL[name]),
  };
}

/**
 * The summed `value` of the events a site sent, per group, currency and UTC day (the extras), in
 * minor units of that currency; money.query.ts turns it into the site's currency.
 */
export function goalValues(q: ConversionQuery): Grouped {
  return {
    rows: sql`${conversionRows(q, false)} and ${SITE_SENT} and e.value_minor is not null`,
    dimensions: dimensionsOf(q),
    extras: [sql`e.currency`, sql`to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD')`],
    metrics: [sql`sum(e.value_minor)::float8`],
  };
}
