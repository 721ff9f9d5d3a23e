/**
 * Builds the rollups of one site and UTC day (migrations/024_stats_rollups.sql) from the day's
 * visits and pageviews, read with the dimension, person and bounce rules the raw reports use
 * (visit-columns.sql.ts, pageview-grain.sql.ts), so a report reads the same figures from either. A day is built only once
 * every visit that started on it has ended: a closed visit never changes (ingest drops activity
 * after 30 idle minutes), so the day's figures are final but for identity links made later
 * (rollup-job.query.ts drops such days to be built again).
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { personJoin } from '../grain.sql.js';
import { viewedDayBefore } from '../pageview-grain.sql.js';
import { VISIT_DIMENSIONS } from '../stats-vocabulary.js';
import { BOUNCED, customEventsJoin, personSql, VISIT_DIMENSION_SQL } from '../visit-columns.sql.js';
import { PeopleSketch, personHash } from './people-sketch.js';

/** The rollup of a whole day, without a dimension. */
export const TOTAL = 'total';
export const PAGE = 'event:page';
export const ROLLUP_DIMENSIONS: readonly string[] = [TOTAL, ...VISIT_DIMENSIONS, PAGE];
/** Rows per insert statement. */
export const INSERT_CHUNK = 500;

/** One dimension value's figures, as a rollup row holds them (day or month). */
export interface RollupGroup {
  dimension: string;
  value: string;
  visits: number;
  pageviews: number;
  bounces: number;
  engagedSeconds: number;
  continuedVisits: number;
  people: PeopleSketch;
}

type VisitRow = Record<string, string | number | boolean | null>;

/** `day`'s UTC bounds, as instants. */
export const dayStart = (day: string) => sql`(${day}::date::timestamp at time zone 'UTC')`;
export const dayEnd = (day: string) => sql`((${day}::date + 1)::timestamp at time zone 'UTC')`;

/**
 * Builds `day` of the site, replacing what was built before, in one transaction. False, with
 * nothing written, while a visit of the day may still go on.
 */
export async function buildRollupDay(
  db: Kysely<DB>,
  siteId: string,
  day: string,
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const open = await sql`
      select 1 from visits v
      where v.site_id = ${siteId} and v.started_at >= ${dayStart(day)} and v.started_at < ${dayEnd(day)}
        and v.last_activity_at > ${now}::timestamptz - touchtrail_visit_idle()
      limit 1
    `.execute(trx);
    if (open.rows.length > 0) return false;
    // First, so that two processes building the same day take turns on this row.
    await trx
      .insertInto('stats_rollup_days')
      .values({ site_id: siteId, day, built_at: now })
      .onConflict((oc) => oc.columns(['site_id', 'day']).doUpdateSet({ built_at: now }))
      .execute();
    await deleteRollupRows(trx, siteId, [day]);
    const groups = [
      ...groupVisits(await readVisits(trx, siteId, day)),
      ...groupPageviews(await readPageviews(trx, siteId, day)),
    ];
    for (let at = 0; at < groups.length; at += INSERT_CHUNK) {
      await trx
        .insertInto('stats_visit_rollups')
        .values(groups.slice(at, at + INSERT_CHUNK).map((group) => ({ ...rowOf(siteId, group), day })))
        .execute();
    }
    return true;
  });
}

/** A group's columns of the day and month rollup tables, but the day or month. */
export const rowOf = (siteId: string, group: RollupGroup) => ({
  site_id: siteId,
  dimension: group.dimension,
  value: group.value,
  visits: group.visits,
  pageviews: group.pageviews,
  bounces: group.bounces,
  engaged_seconds: group.engagedSeconds,
  continued_visits: group.continuedVisits,
  people: group.people.encode(),
  people_count: group.people.count(),
});

/**
 * Deletes the rollup rows of these days (every dimension, through the primary key), and the
 * months that hold them, which are merged again once their days are all built.
 */
export async function deleteRollupRows(db: Kysely<DB>, siteId: string, days: string[]): Promise<void> {
  if (days.length === 0) return;
  const months = [...new Set(days.map(monthOf))];
  await db
    .deleteFrom('stats_visit_rollups')
    .where('site_id', '=', siteId)
    .where('dimension', 'in', ROLLUP_DIMENSIONS)
    .where(sql<boolean>`day = any(${days}::date[])`)
    .execute();
  await db
    .deleteFrom('stats_rollup_months')
    .where('site_id', '=', siteId)
    .where(sql<boolean>`month = any(${months}::date[])`)
    .execute();
  await db
    .deleteFrom('stats_month_rollups')
    .where('site_id', '=', siteId)
    .where('dimension', 'in', ROLLUP_DIMENSIONS)
    .where(sql<boolean>`month = any(${months}::date[])`)
    .execute();
}

/** The first day of the month of `day` (YYYY-MM-DD). */
export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

async function readVisits(db: Kysely<DB>, siteId: string, day: string): Promise<VisitRow[]> {
  const columns = VISIT_DIMENSIONS.map((name, i) => sql`${VISIT_DIMENSION_SQL[name]} as ${sql.ref(`d${i}`)}`);
  const { rows } = await sql<VisitRow>`
    select ${sql.join(columns)}, ${personSql(sql`v.visitor_id`)} as person,
      v.pageviews, v.engaged_seconds, ${BOUNCED} as bounced
    from visits v ${customEventsJoin(siteId, dayStart(day))}
    ${personJoin({ siteId }, 'v.visitor_id')}
    where v.site_id = ${siteId} and v.started_at >= ${dayStart(day)} and v.started_at < ${dayEnd(day)}
  `.execute(db);
  return rows;
}

export const newGroup = (dimension: string, value: string): RollupGroup => ({
  dimension,
  value,
  visits: 0,
  pageviews: 0,
  bounces: 0,
  engagedSeconds: 0,
  continuedVisits: 0,
  people: new PeopleSketch(),
});

interface PageviewRow {
  path: string | null;
  visit_id: string | null;
  person: string;
  continued: boolean;
}

/** The day's pageviews, each with whether its visit viewed the same page the day before. */
async function readPageviews(db: Kysely<DB>, siteId: string, day: string): Promise<PageviewRow[]> {
  const { rows } = await sql<PageviewRow>`
    select e.path, e.visit_id, ${personSql(sql`e.visitor_id`)} as person, ${viewedDayBefore(siteId, day)} as continued
    from events e ${personJoin({ siteId }, 'e.visitor_id')}
    where e.site_id = ${siteId} and e.type = 'pageview'
      and e.occurred_at >= ${dayStart(day)} and e.occurred_at < ${dayEnd(day)}
  `.execute(db);
  return rows;
}

/** Per page: pageviews, distinct visits, visits that viewed it the day before too, people. */
function groupPageviews(pageviews: PageviewRow[]): RollupGroup[] {
  const pages = new Map<string, { group: RollupGroup; visits: Set<string>; continued: Set<string> }>();
  for (const view of pageviews) {
    const value = view.path ?? '';
    let page = pages.get(value);
    if (!page) {
      page = { group: newGroup(PAGE, value), visits: new Set(), continued: new Set() };
      pages.set(value, page);
    }
    page.group.pageviews += 1;
    page.group.people.add(personHash(view.person));
    if (view.visit_id !== null) {
      page.visits.add(view.visit_id);
      if (view.continued) page.continued.add(view.visit_id);
    }
  }
  return [...pages.values()].map(({ group, visits, continued }) => ({
    ...group,
    visits: visits.size,
    continuedVisits: continued.size,
  }));
}

function groupVisits(visits: VisitRow[]): RollupGroup[] {
  const groups = new Map<string, RollupGroup>();
  const add = (dimension: string, value: string, visit: VisitRow, hash: number) => {
    const key = `${dimension}\u0000${value}`;
    let group = groups.get(key);
    if (!group) {
      group = newGroup(dimension, value);
      groups.set(key, group);
    }
    group.visits += 1;
    group.pageviews += Number(visit.pageviews);
    group.bounces += visit.bounced ? 1 : 0;
    group.engagedSeconds += Number(visit.engaged_seconds);
    group.people.add(hash);
  };
  for (const visit of visits) {
    const hash = personHash(String(visit.person));
    add(TOTAL, '', visit, hash);
    VISIT_DIMENSIONS.forEach((name, i) => {
      add(name, String(visit[`d${i}`] ?? ''), visit, hash);
    });
  }
  return [...groups.values()];
}
