/**
 * Keeps the visit rollups (rollup-day.query.ts) up to date, one pass per run of the background job:
 * for each site, first drops the built days that identity links made since the last pass have
 * made stale (a link merges a visitor id into a person, which changes the people of every day
 * that visitor id visited), then builds the days not built yet, oldest first, from the month of
 * the site's first visit to the last day that can have ended (a visit may go on up to 30 idle
 * minutes past midnight), then merges every month whose days are all built (rollup-month.query.ts).
 * Then it builds the goal rollups (goal-rollup-day.query.ts) of the days from the site's first
 * conversion that are not built, or were marked to be built again by a conversion sent for them
 * later or by an identity link. Last, it counts the people of some rows built before their count
 * was stored. Safe in several processes at once: a day's build is one transaction that takes the
 * day's row first.
 */
import { type Kysely, sql } from 'kysely';
import { pgHoldsFrom } from '../../clickhouse/ship-batches.query.js';
import type { DB } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { MINUTE_MS } from '../../lib/clock.js';
import { firstWholeRawDay } from '../../retention/retention-limits.js';
import { buildGoalRollupDay } from './goal-rollup-day.query.js';
import { buildRollupDay, deleteRollupRows } from './rollup-day.query.js';
import { mergeRollupMonth, monthsToMerge } from './rollup-month.query.js';
import { countRollupPeople } from './rollup-people-counts.query.js';

/**
 * Longer than any ingest transaction takes to commit: a link is certainly visible this long
 * after it was made, and a build that started later saw it. Each link is checked once, when this
 * has passed, and drops the days built before then; so a merge of people reaches the rollups
 * within a few minutes, and a day is never dropped twice for one link.
 */
const LINK_COMMIT_MARGIN_MS = 5 * MINUTE_MS;

export interface RollupRunReport {
  built: number;
  /** Whole months merged from their days. */
  months: number;
  /** Days dropped because of identity links made after they were built. */
  stale: number;
  /** Days left for a later run: a visit of theirs may still go on, or the run's budget was spent. */
  waiting: number;
  /** Rows built before their people count was stored, counted now (rollup-people-counts.query.ts). */
  counted: number;
  /** Days whose goal rollups were built. */
  goalDays: number;
}

/** Older rollup rows counted per table and run: a few seconds' work. */
const COUNT_BATCH = 20_000;

/**
 * The last UTC day whose visits can all have ended by `now`, and whose conversions have come: a
 * visit started before midnight may go on for touchtrail_visit_idle() past it (the visit rule's
 * one owner, packages/server/sql/ingest/01_types.sql).
 */
export async function lastClosableDay(db: Kysely<DB>, now: Date): Promise<string> {
  const { rows } = await sql<{ day: string }>`
    select to_char(${now}::timestamptz at time zone 'UTC' - touchtrail_visit_idle() - interval '1 day', 'YYYY-MM-DD') as day
  `.execute(db);
  return (rows[0] as { day: string }).day;
}

export function createStatsRollups({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  /** Days before `firstRebuildable` lost raw rows to retention: they keep what was built. */
  async function dropStaleDays(siteId: string, now: Date, firstRebuildable: string): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const checked = await trx
        .selectFrom('stats_rollup_sites')
        .select('links_checked_at')
        .where('site_id', '=', siteId)
        .forUpdate()
        .executeTakeFirst();
      const margin = sql`(interval '1 millisecond' * ${LINK_COMMIT_MARGIN_MS})`;
      const settled = new Date(now.getTime() - LINK_COMMIT_MARGIN_MS);
      let stale: string[] = [];
      if (checked) {
        const { rows } = await sql<{ day: string }>`
          delete from stats_rollup_days d
          using identity_links l
          join visits v on v.site_id = l.site_id and v.visitor_id = l.visitor_id
          where l.site_id = ${siteId}
            and l.created_at > ${checked.links_checked_at} and l.created_at <= ${settled}
            and d.site_id = l.site_id and d.day = (v.started_at at time zone 'UTC')::date
            and d.built_at < l.created_at + ${margin}
            and d.day >= ${firstRebuildable}::date
          returning to_char(d.day, 'YYYY-MM-DD') as day
        `.execute(trx);
        stale = [...new Set(rows.map((row) => row.day))];
        await deleteRollupRows(trx, siteId, stale);
        // The days the linked visitor ids converted on: their goals' people changed too.
        await sql`
          update stats_goal_rollup_days g set built_at = null
          from identity_links l
          join events e on e.site_id = l.site_id and e.visitor_id = l.visitor_id and e.type = 'event'
          where l.site_id = ${siteId}
            and l.created_at > ${checked.links_checked_at} and l.created_at <= ${settled}
            and g.site_id = l.site_id and g.day = (e.occurred_at at time zone 'UTC')::date
            and g.built_at < l.created_at + ${margin}
            and g.day >= ${firstRebuildable}::date
        `.execute(trx);
      }
      await trx
        .insertInto('stats_rollup_sites')
        .values({ site_id: siteId, links_checked_at: settled })
        .onConflict((oc) => oc.column('site_id').doUpdateSet({ links_checked_at: settled }))
        .execute();
      return stale.length;
    });
  }

  async function daysToBuild(siteId: string, lastDay: string, limit: number): Promise<string[]> {
    const { rows } = await sql<{ day: string }>`
      select to_char(d, 'YYYY-MM-DD') as day
      from (
        select date_trunc('month', min(started_at) at time zone 'UTC')::date as first
        from visits where site_id = ${siteId}
      ) f,
        generate_series(f.first, ${lastDay}::date, interval '1 day') d
      where not exists (select 1 from stats_rollup_days r where r.site_id = ${siteId} and r.day = d::date)
      order by d
      limit ${limit}
    `.execute(db);
    return rows.map((row) => row.day);
  }

  /** Days from the site's first conversion not built, or marked to be built again, oldest first. */
  async function goalDaysToBuild(siteId: string, lastDay: string, limit: number): Promise<string[]> {
    const { rows } = await sql<{ day: string }>`
      select to_char(d, 'YYYY-MM-DD') as day
      from (
        select (min(occurred_at) at time zone 'UTC')::date as first
        from events where site_id = ${siteId} and type = 'event'
      ) f,
        generate_series(f.first, ${lastDay}::date, interval '1 day') d
      where not exists (
        select 1 from stats_goal_rollup_days g
        where g.site_id = ${siteId} and g.day = d::date and g.built_at is not null
      )
      order by d
      limit ${limit}
    `.execute(db);
    return rows.map((row) => row.day);
  }

  return {
    /** One pass over every site, building at most `maxDays` days in all, and as many days' goals. */
    async runOnce({ maxDays = 400 }: { maxDays?: number } = {}): Promise<RollupRunReport> {
      const now = clock.now();
      const lastDay = await lastClosableDay(db, now);
      const report: RollupRunReport = { built: 0, months: 0, stale: 0, waiting: 0, counted: 0, goalDays: 0 };
      // A site being erased is left alone: its visits are going.
      const sites = await db
        .selectFrom('sites')
        .select(['id', 'events_retention_days', 'visits_retention_days'])
        .where('erasure_started_at', 'is', null)
        .orderBy('id')
        .execute();
      const holdsFrom = await pgHoldsFrom(db);
      for (const site of sites) {
        const { id } = site;
        report.stale += await dropStaleDays(id, now, firstWholeRawDay(site, now, holdsFrom));
        const budget = maxDays - report.built;
        const days = await daysToBuild(id, lastDay, budget + 1);
        report.waiting += Math.max(0, days.length - budget);
        for (const day of days.slice(0, budget)) {
          if (await buildRollupDay(db, id, day, now)) report.built += 1;
          else report.waiting += 1;
        }
        for (const month of await monthsToMerge(db, id)) {
          if (await mergeRollupMonth(db, id, month, now)) report.months += 1;
        }
        for (const day of await goalDaysToBuild(id, lastDay, maxDays - report.goalDays)) {
          await buildGoalRollupDay(db, id, day, now);
          report.goalDays += 1;
        }
      }
      report.counted = await countRollupPeople(db, COUNT_BATCH);
      return report;
    },
  };
}

export type StatsRollups = ReturnType<typeof createStatsRollups>;
