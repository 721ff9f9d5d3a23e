/**
 * Conversion metrics over conversion events (`events` rows of type `event`: custom, server and
 * payment events, as the conversion listing counts them), with or without a visit, bucketed by
 * when they happened. Visit dimensions read the event's own visit (null without one).
 */
import { type RawBuilder, sql } from 'kysely';
import { PAYMENT_EVENT_NAMES } from '../goals/goal-names.js';
import { eventDimensionSql, filterSql } from './filter-sql.js';
import { type GrainQuery, personJoin, rangeEnd, rangeStart } from './grain.js';
import type { Grouped } from './grouped-query.js';
import { isEventDimension, isTimeDimension, isVisitDimension } from './stats-vocabulary.js';
import { personSql, timeBucketSql, VISIT_DIMENSION_SQL } from './visit-columns.js';

/** `converters`: people with a conversion during a visit, the numerator of `conversion_rate`. */
export type ConversionCount = 'events' | 'conversions' | 'visitors' | 'converters';

/** Events the product records itself for payments: conversions, but not events a site sent. */
const SITE_SENT = sql`e.name not in (${sql.join(PAYMENT_EVENT_NAMES.map((name) => sql.lit(name)))})`;
const PERSON = personSql(sql`e.visitor_id`, sql`e.person_key`);

const COUNT_SQL: Record<ConversionCount, RawBuilder<number>> = {
  events: sql`count(*) filter (where ${SITE_SENT})::float8`,
  conversions: sql`count(*)::float8`,
  visitors: sql`count(distinct ${PERSON})::float8`,
  converters: sql`count(distinct ${PERSON}) filter (where e.visit_id is not null)::float8`,
};

function conversionRows(q: GrainQuery, people: boolean) {
  return sql`
    from events e
    left join visits v on v.site_id = e.site_id and v.id = e.visit_id
    ${people ? personJoin(q, 'e.visitor_id') : sql``}
    where e.site_id = ${q.siteId} and e.type = 'event'
      and e.occurred_at >= ${rangeStart(q)} and e.occurred_at < ${rangeEnd(q)}
      and ${filterSql({ op: 'and', filters: q.filters }, 'conversions')}`;
}

function dimensionsOf(q: GrainQuery) {
  return q.dimensions.map((name) => {
    if (isTimeDimension(name)) return timeBucketSql(name, q.timezone, sql`e.occurred_at`);
    if (isVisitDimension(name)) return VISIT_DIMENSION_SQL[name];
    if (isEventDimension(name)) return eventDimensionSql(name, 'e');
    throw new Error(`conversion grain asked for ${name}`);
  });
}

export function conversionCounts(q: GrainQuery, counts: ConversionCount[]): Grouped {
  const people = counts.includes('visitors') || counts.includes('converters');
  return {
    rows: conversionRows(q, people),
    dimensions: dimensionsOf(q),
    metrics: counts.map((name) => COUNT_SQL[name]),
  };
}

/**
 * The summed `value` of the events a site sent, per group, currency and UTC day (the extras), in
 * minor units of that currency; money.ts turns it into the site's currency.
 */
export function goalValues(q: GrainQuery): Grouped {
  return {
    rows: sql`${conversionRows(q, false)} and ${SITE_SENT} and e.value_minor is not null`,
    dimensions: dimensionsOf(q),
    extras: [sql`e.currency`, sql`to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD')`],
    metrics: [sql`sum(e.value_minor)::float8`],
  };
}
