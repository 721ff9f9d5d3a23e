/**
 * Merges the built days of a whole month into its month rows (stats_month_rollups): sums add
 * up, people merge as sketches, and a page's visits count once over the month (a visit that
 * viewed the page on two days in a row is taken off on the second, as the reader does for days).
 * The month's `continued_visits` are its first day's, so a range that starts later still joins
 * the month to the day before it.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { INSERT_CHUNK, newGroup, ROLLUP_DIMENSIONS, type RollupGroup, rowOf } from './rollup-day.query.js';

/** The months of the site whose days are all built and that have no month rows yet. */
export async function monthsToMerge(db: Kysely<DB>, siteId: string): Promise<string[]> {
  const { rows } = await sql<{ month: string }>`
    select to_char(date_trunc('month', d.day), 'YYYY-MM-DD') as month
    from stats_rollup_days d
    where d.site_id = ${siteId}
      and not exists (
        select 1 from stats_rollup_months m
        where m.site_id = d.site_id and m.month = date_trunc('month', d.day)::date
      )
    group by 1
    having count(*) = extract(day from date_trunc('month', min(d.day)) + interval '1 month' - interval '1 day')
    order by 1
  `.execute(db);
  return rows.map((row) => row.month);
}

/** Merges `month` (YYYY-MM-01) of the site, in one transaction; false if a day went missing. */
export async function mergeRollupMonth(
  db: Kysely<DB>,
  siteId: string,
  month: string,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // First, so that two processes merging the same month take turns on this row.
    await trx
      .insertInto('stats_rollup_months')
      .values({ site_id: siteId, month, built_at: now })
      .onConflict((oc) => oc.columns(['site_id', 'month']).doUpdateSet({ built_at: now }))
      .execute();
    const { rows: built } = await sql<{ days: number; expected: number }>`
      select count(*)::int as days,
        extract(day from ${month}::date + interval '1 month' - interval '1 day')::int as expected
      from stats_rollup_days
      where site_id = ${siteId} and day >= ${month}::date and day < ${month}::date + interval '1 month'
    `.execute(trx);
    if (built[0]?.days !== built[0]?.expected) {
      await trx
        .deleteFrom('stats_rollup_months')
        .where('site_id', '=', siteId)
        .where('month', '=', month)
        .execute();
      return false;
    }
    await trx
      .deleteFrom('stats_month_rollups')
      .where('site_id', '=', siteId)
      .where('dimension', 'in', ROLLUP_DIMENSIONS)
      .where('month', '=', month)
      .execute();
    const days = await trx
      .selectFrom('stats_visit_rollups')
      .select([
        'dimension',
        'value',
        'visits',
        'pageviews',
        'bounces',
        'engaged_seconds',
        'continued_visits',
        'people',
      ])
      .select(sql<boolean>`day = ${month}::date`.as('first_day'))
      .where('site_id', '=', siteId)
      .where('dimension', 'in', ROLLUP_DIMENSIONS)
      .where(sql<boolean>`day >= ${month}::date and day < ${month}::date + interval '1 month'`)
      .execute();
    const groups = new Map<string, RollupGroup>();
    for (const day of days) {
      const key = `${day.dimension}\u0000${day.value}`;
      let group = groups.get(key);
      if (!group) {
        group = newGroup(day.dimension, day.value);
        groups.set(key, group);
      }
      const continued = Number(day.continued_visits);
      group.visits += Number(day.visits) - (day.first_day ? 0 : continued);
      group.continuedVisits += day.first_day ? continued : 0;
      group.pageviews += Number(day.pageviews);
      group.bounces += Number(day.bounces);
      group.engagedSeconds += Number(day.engaged_seconds);
      group.people.merge(day.people);
    }
    const rows = [...groups.values()].map((group) => ({ ...rowOf(siteId, group), month }));
    for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
      await trx
        .insertInto('stats_month_rollups')
        .values(rows.slice(at, at + INSERT_CHUNK))
        .execute();
    }
    return true;
  });
}
