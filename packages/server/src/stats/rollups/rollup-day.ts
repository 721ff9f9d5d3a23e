/**
 * Builds the visit rollups of one site and UTC day (migrations/024_stats_rollups.sql) from the
 * day's visits, read with the dimension, person and bounce rules the raw reports use
 * (visit-columns.ts), so a report reads the same figures from either. A day is built only once
 * every visit that started on it has ended: a closed visit never changes (ingest drops activity
 * after 30 idle minutes), so the day's figures are final but for identity links made later
 * (rollup-job.ts drops such days to be built again).
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { personJoin } from '../grain.js';
import { VISIT_DIMENSIONS } from '../stats-vocabulary.js';
import { BOUNCED, customEventsJoin, personSql, VISIT_DIMENSION_SQL } from '../visit-columns.js';
import { PeopleSketch, personHash } from './people-sketch.js';

/** The rollup of a whole day, without a dimension. */
export const TOTAL = 'total';
export const ROLLUP_DIMENSIONS: readonly string[] = [TOTAL, ...VISIT_DIMENSIONS];
/** Rows per insert statement. */
const INSERT_CHUNK = 500;

interface Group {
  dimension: string;
  value: string;
  visits: number;
  pageviews: number;
  bounces: number;
  engagedSeconds: number;
  people: PeopleSketch;
}

type VisitRow = Record<string, string | number | boolean | null>;

/** `day`'s UTC bounds, as instants. */
export const dayStart = (day: string) => sql`(${day}::date::timestamp at time zone 'UTC')`;
const dayEnd = (day: string) => sql`((${day}::date + 1)::timestamp at time zone 'UTC')`;

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
    const groups = groupVisits(await readVisits(trx, siteId, day));
    for (let at = 0; at < groups.length; at += INSERT_CHUNK) {
      await trx
        .insertInto('stats_visit_rollups')
        .values(
          groups.slice(at, at + INSERT_CHUNK).map((group) => ({
            site_id: siteId,
            dimension: group.dimension,
            day,
            value: group.value,
            visits: group.visits,
            pageviews: group.pageviews,
            bounces: group.bounces,
            engaged_seconds: group.engagedSeconds,
            people: group.people.encode(),
          })),
        )
        .execute();
    }
    return true;
  });
}

/** Deletes the rollup rows of these days (every dimension, through the primary key). */
export async function deleteRollupRows(db: Kysely<DB>, siteId: string, days: string[]): Promise<void> {
  if (days.length === 0) return;
  await db
    .deleteFrom('stats_visit_rollups')
    .where('site_id', '=', siteId)
    .where('dimension', 'in', ROLLUP_DIMENSIONS)
    .where(sql<boolean>`day = any(${days}::date[])`)
    .execute();
}

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

function groupVisits(visits: VisitRow[]): Group[] {
  const groups = new Map<string, Group>();
  const add = (dimension: string, value: string, visit: VisitRow, hash: string) => {
    const key = `${dimension}\u0000${value}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        dimension,
        value,
        visits: 0,
        pageviews: 0,
        bounces: 0,
        engagedSeconds: 0,
        people: new PeopleSketch(),
      };
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
