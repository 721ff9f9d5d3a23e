/**
 * Builds the goal rollups of one site and UTC day (migrations/032_goal_rollups.sql) from the
 * day's conversion events, read with the person and "sent by the site" rules the raw conversion
 * reports use (conversion-grain.sql.ts), so a report reads the same figures from either. Unlike a
 * day's visits, its conversions may still come later (a payment sent for a past day): the
 * events trigger then marks the day to be built again, and the rollup job does so. A null name or
 * currency is stored as ''.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { PERSON, SITE_SENT } from '../conversion-grain.sql.js';
import { personJoin } from '../grain.sql.js';
import { PeopleSketch, personHash } from './people-sketch.js';
import { dayEnd, dayStart, INSERT_CHUNK } from './rollup-day.query.js';

interface GoalGroup {
  events: number;
  conversions: number;
  people: PeopleSketch;
}

const dayEvents = (siteId: string, day: string) => sql`
  from events e
  where e.site_id = ${siteId} and e.type = 'event'
    and e.occurred_at >= ${dayStart(day)} and e.occurred_at < ${dayEnd(day)}`;

/** Builds `day`'s goals of the site, replacing what was built before, in one transaction. */
export async function buildGoalRollupDay(
  db: Kysely<DB>,
  siteId: string,
  day: string,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // First, so that a build and a conversion sent for this day take turns on this row (see
    // sql/stats/01_goal_day_changed.sql): what this build reads includes every such conversion whose
    // transaction committed before, and a later one marks the day again.
    await trx
      .insertInto('stats_goal_rollup_days')
      .values({ site_id: siteId, day, built_at: now })
      .onConflict((oc) => oc.columns(['site_id', 'day']).doUpdateSet({ built_at: now }))
      .execute();
    await deleteGoalRollupRows(trx, siteId, day);
    const { rows } = await sql<{ name: string; person: string | null; events: number; conversions: number }>`
      select coalesce(e.name, '') as name, ${PERSON} as person,
        (count(*) filter (where ${SITE_SENT}))::int as events, count(*)::int as conversions
      from (select e.* ${dayEvents(siteId, day)}) e ${personJoin({ siteId }, 'e.visitor_id')}
      group by 1, 2
    `.execute(trx);
    const goals = new Map<string, GoalGroup>();
    for (const row of rows) {
      let goal = goals.get(row.name);
      if (!goal) {
        goal = { events: 0, conversions: 0, people: new PeopleSketch() };
        goals.set(row.name, goal);
      }
      goal.events += row.events;
      goal.conversions += row.conversions;
      goal.people.add(personHash(String(row.person)));
    }
    const values = [...goals].map(([name, goal]) => ({
      site_id: siteId,
      day,
      name,
      events: goal.events,
      conversions: goal.conversions,
      people: goal.people.encode(),
      people_count: goal.people.count(),
    }));
    for (let at = 0; at < values.length; at += INSERT_CHUNK) {
      await trx
        .insertInto('stats_goal_rollups')
        .values(values.slice(at, at + INSERT_CHUNK))
        .execute();
    }
    await sql`
      insert into stats_goal_value_rollups (site_id, day, name, currency, value_minor)
      select ${siteId}, ${day}::date, coalesce(e.name, ''), coalesce(e.currency, ''), sum(e.value_minor)
      ${dayEvents(siteId, day)} and ${SITE_SENT} and e.value_minor is not null
      group by 3, 4
    `.execute(trx);
  });
}

async function deleteGoalRollupRows(db: Kysely<DB>, siteId: string, day: string): Promise<void> {
  for (const table of ['stats_goal_rollups', 'stats_goal_value_rollups'] as const) {
    await db.deleteFrom(table).where('site_id', '=', siteId).where('day', '=', day).execute();
  }
}
