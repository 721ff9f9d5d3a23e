/**
 * Each person's revenue in the window, in minor units of the site's currency, as SQL: the
 * `revenue.total_cents` of their visitor row (conversion-totals.query.ts) computed for every
 * person at once, so the people listing can sort by it before cutting a page.
 *
 * It follows conversion-totals.query.ts step for step, in the same float8 arithmetic as its
 * JavaScript: events grouped per visitor id (or person key alone), currency and UTC day; a
 * group in another currency converted through the euro at the rate of its day (rates/exchange.ts),
 * rounded half up once per group; a group without a rate left out.
 */
import { type RawBuilder, sql } from 'kysely';
import { currencyExponent } from '../lib/money.js';
import { perEuroOn } from '../rates/exchange.sql.js';

/** Minor units per major unit of every currency not in hundredths (JPY 1, KWD 1000). */
const UNUSUAL_FACTORS = Intl.supportedValuesOf('currency')
  .map((code) => [code, 10 ** currencyExponent(code)] as const)
  .filter(([, factor]) => factor !== 100);

function minorPerMajor(currency: RawBuilder<unknown>): RawBuilder<number> {
  const cases = UNUSUAL_FACTORS.map(([code, factor]) => sql`when ${sql.lit(code)} then ${sql.lit(factor)}`);
  return sql<number>`(case ${currency} ${sql.join(cases, sql` `)} else 100 end)::float8`;
}

/**
 * A table expression: `person` (a PersonId) and `total_minor` for everyone with a valued
 * conversion event in the window. `personLinks` is identity.sql.ts's reading of the links.
 */
export function revenueByPerson(q: {
  siteId: string;
  currency: string;
  start: Date;
  end: Date;
  personLinks: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  const siteFactor = sql.lit(10 ** currencyExponent(q.currency));
  const converted = sql`floor(
    g.value_minor::float8 / ${minorPerMajor(sql`g.currency`)}
      / ${perEuroOn(sql`g.currency`, sql`g.day`)}::float8 * ${perEuroOn(q.currency, sql`g.day`)}::float8
      * ${siteFactor}::float8 + 0.5)`;
  return sql`(
    select coalesce('p:' || coalesce(l.person_key, g.person_key), 'v:' || g.visitor_id) as person,
           sum(case when g.currency = ${q.currency} then g.value_minor
                    else coalesce(${converted}, 0)::bigint end) as total_minor
    from (
      select visitor_id, case when visitor_id is null then person_key end as person_key,
             currency, (occurred_at at time zone 'UTC')::date as day, sum(value_minor) as value_minor
      from events
      where site_id = ${q.siteId} and type = 'event'
        and occurred_at >= ${q.start} and occurred_at < ${q.end}
        and value_minor > 0 and currency is not null
        and (visitor_id is not null or person_key is not null)
      group by 1, 2, 3, 4
    ) g
    left join ${q.personLinks} l on l.visitor_id = g.visitor_id
    group by 1
  )`;
}
