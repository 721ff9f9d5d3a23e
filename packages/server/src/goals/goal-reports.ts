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
import { planMetrics } from '../reporting/metric-rules.js';
import { answerStatsQuery } from '../reporting/planner.js';
import type { Dimension, Metric } from '../reporting/stats-vocabulary.js';
import type { SitesService } from '../sites/sites.service.js';
import { goalCompletionsByDay } from './goal-completions-by-day.query.js';
import { goalNameProblem } from './goal-names.js';
import { goalPropertyValues } from './goal-property-values.query.js';
import type { TimeseriesExtra } from './goals.schemas.js';

/**
 * Conversion rate and summed value per goal over the window, as the stats query counts them
 * (reporting/metric-rules.ts owns both definitions).
 */
async function goalExtras(db: Kysely<DB>, site: Site, window: DayWindow, include: Set<TimeseriesExtra>) {
  const metrics: Metric[] = [];
  if (include.has('conversion_rate')) metrics.push('conversion_rate');
  if (include.has('value')) metrics.push('goal_value');
  const dimensions: Dimension[] = ['event:goal'];
  const answer = await answerStatsQuery(
    { db },
    {
      ...{ siteId: site.id, siteCurrency: site.currency, model: site.attribution_model },
      ...{ from: window.from, to: window.to, timezone: 'UTC', dimensions, metrics, filters: [] },
      ...{ orderBy: [], limit: null, offset: 0 },
    },
    planMetrics(metrics, dimensions, []),
    { withTotalRows: false },
  );
  const byGoal = new Map<string, Extras>();
  for (const row of answer.rows) {
    const values = Object.fromEntries(metrics.map((name, i) => [name, row.metrics[i] ?? 0]));
    byGoal.set(row.dimensions[0] ?? '', {
      conversion_rate: values.conversion_rate,
      value: values.goal_value,
    });
  }
  const unconverted = answer.unconverted.map(({ currency, amount }) => ({ currency, amount }));
  return { byGoal, unconverted };
}

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

type Extras = { conversion_rate?: number; value?: number };

type Site = Awaited<ReturnType<SitesService['resolveSite']>>;

interface ReportDeps {
  db: Kysely<DB>;
  clock: Clock;
  siteFor: (principal: Principal, ref: string, access: 'read' | 'write') => Promise<Site>;
}

type Series = { goal_name: string; points: { date: string; completions: number }[]; total: number } & Extras;
type Breakdown = { key: string; values: { value: string; count: number }[] };

export function createGoalReports({ db, clock, siteFor }: ReportDeps) {
  return {
    /** One series per goal that fired in the window; days without completions are absent. */
    async timeseries(principal: Principal, query: ReportQuery & { include?: TimeseriesExtra[] | undefined }) {
      const window = resolveReportWindow(query, clock.now());
      const site = await siteFor(principal, query.site_id, 'read');
      const include = new Set(query.include ?? []);
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
      if (include.size === 0) return { from: window.from, to: window.to, series };
      const extras = await goalExtras(db, site, window, include);
      for (const one of series) {
        const found = extras.byGoal.get(one.goal_name);
        if (include.has('conversion_rate')) one.conversion_rate = found?.conversion_rate ?? 0;
        if (include.has('value')) one.value = found?.value ?? 0;
      }
      return {
        from: window.from,
        to: window.to,
        series,
        ...(include.has('value') ? { currency: site.currency, unconverted: extras.unconverted } : {}),
      };
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
