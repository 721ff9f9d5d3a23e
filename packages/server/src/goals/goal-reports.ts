/**
 * Goal reports (interface §2.3, §2.4): completions per day from the daily rollup, and the
 * property breakdown from the events themselves. Both take a window of at most 365 days and
 * work for a site scheduled for deletion (reads of existing data keep working).
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { badInput } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { type DayWindow, resolveDayWindow } from '../lib/day-window.js';
import type { SitesService } from '../sites/sites.service.js';
import { goalCompletionsByDay } from './goal-completions-by-day.js';
import { goalNameProblem } from './goal-names.js';
import { goalPropertyValues } from './goal-property-values.js';

/** The goal reports' window (interface §4.1, §8): `to` and the six days before it, at most 365 days. */
export const GOAL_REPORT_WINDOW = { defaultDays: 7, maxDays: 365 };

/** The window of a goal report or the goal visitors report, with those defaults and limits. */
export function resolveReportWindow(input: { from?: string; to?: string }, now: Date): DayWindow {
  return resolveDayWindow(input, now, GOAL_REPORT_WINDOW);
}

export interface ReportQuery {
  site_id: string;
  from?: string;
  to?: string;
}

type Site = Awaited<ReturnType<SitesService['resolveSite']>>;

interface ReportDeps {
  db: Kysely<DB>;
  clock: Clock;
  siteFor: (principal: Principal, ref: string, access: 'read' | 'write') => Promise<Site>;
}

type Series = { goal_name: string; points: { date: string; completions: number }[]; total: number };
type Breakdown = { key: string; values: { value: string; count: number }[] };

export function createGoalReports({ db, clock, siteFor }: ReportDeps) {
  return {
    /** One series per goal that fired in the window; days without completions are absent. */
    async timeseries(principal: Principal, query: ReportQuery) {
      const window = resolveReportWindow(query, clock.now());
      const site = await siteFor(principal, query.site_id, 'read');
      const series: Series[] = [];
      for (const row of await goalCompletionsByDay(db, site.id, window)) {
        let current = series.at(-1);
        if (current?.goal_name !== row.name) {
          current = { goal_name: row.name, points: [], total: 0 };
          series.push(current);
        }
        current.points.push({ date: row.day, completions: row.completions });
        current.total += row.completions;
      }
      return { from: window.from, to: window.to, series };
    },

    /** Values per property key of the goal's events, within the shared scan budget. */
    async properties(principal: Principal, goalName: string, query: ReportQuery) {
      const problem = goalNameProblem(goalName);
      if (problem) throw badInput('name', `name ${problem}`, 'params');
      const window = resolveReportWindow(query, clock.now());
      const site = await siteFor(principal, query.site_id, 'read');
      const properties: Breakdown[] = [];
      for (const row of await goalPropertyValues(db, site.id, goalName, window)) {
        let current = properties.at(-1);
        if (current?.key !== row.key) {
          current = { key: row.key, values: [] };
          properties.push(current);
        }
        current.values.push({ value: row.value, count: row.count });
      }
      return { from: window.from, to: window.to, goal_name: goalName, properties };
    },
  };
}
