/**
 * Running a funnel report for the service: the options checked as the stats query checks them
 * (zone, dates; a GET report's query string read into the same options), the range
 * resolved in the zone, the query asked and its rows shaped (funnel-figures.ts).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { badInput } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { type ClickHouseReads, type Readers, readClickHouse } from '../reporting/clickhouse/ch-read.js';
import {
  checkCustomRange,
  type DateRangeInput,
  dayIn,
  resolveDateRange,
  resolveTimezone,
} from '../reporting/date-range.js';
import { type Filter, parseFiltersText } from '../reporting/filters.js';
import { firstVisitDay } from '../reporting/first-visit-day.query.js';
import { rangeInstants } from '../reporting/grain.sql.js';
import { MAX_RANGE_YEARS } from '../reporting/stats-vocabulary.js';
import { breakdownFigures, stepFigures } from './funnel-figures.js';
import { chFunnelReport } from './funnel-report.ch.query.js';
import { type FunnelBreakdown, type FunnelReportQuery, funnelReport } from './funnel-report.query.js';
import type { FunnelStep } from './funnel-steps.js';
import type { ReportQuery } from './funnels.schemas.js';

/** What a report asks besides the funnel itself. */
export interface ReportOptions {
  dateRange: DateRangeInput;
  timezone: string | undefined;
  breakdown: FunnelBreakdown | undefined;
  filters: Filter[];
}

/** Checks what the schema cannot (zone, dates), before anything is read; filters are parsed already. */
export function checkReportOptions(input: ReportOptions) {
  const timezone = resolveTimezone(input.timezone);
  if (Array.isArray(input.dateRange)) checkCustomRange(input.dateRange);
  return { ...input, timezone };
}

export type CheckedReportOptions = ReturnType<typeof checkReportOptions>;

/** A GET report's query string as report options: `filters` is the JSON text of the list. */
export function reportOptionsOf(query: ReportQuery): ReportOptions {
  return {
    dateRange: dateRangeOf(query),
    timezone: query.timezone,
    breakdown: query.breakdown,
    filters: parseFiltersText(query.filters),
  };
}

/** Both dates or neither (then the last 30 days). */
function dateRangeOf(query: ReportQuery): DateRangeInput {
  if (query.from === undefined && query.to === undefined) return '30d';
  if (query.from === undefined) throw badInput('from', 'from must be given with to', 'query');
  if (query.to === undefined) throw badInput('to', 'to must be given with from', 'query');
  if (query.from > query.to) throw badInput('from', `from ${query.from} is after to ${query.to}`, 'query');
  try {
    checkCustomRange([query.from, query.to]);
  } catch {
    throw badInput('to', `from and to span more than ${MAX_RANGE_YEARS} years`, 'query');
  }
  return [query.from, query.to];
}

/** The report's people per step: from ClickHouse when it can answer, else from PostgreSQL. */
export async function readFunnelReport(readers: Readers, q: FunnelReportQuery) {
  const range = await rangeInstants(readers.db, q);
  const fromClickHouse = await readClickHouse(readers, q.siteId, range.start, (ch, scope) =>
    chFunnelReport(ch, scope, q, range),
  );
  return fromClickHouse ?? funnelReport(readers.db, q);
}

export function createFunnelReports({
  db,
  clock,
  clickhouse,
}: {
  db: Kysely<DB>;
  clock: Clock;
  clickhouse?: ClickHouseReads;
}) {
  return async function runReport(
    site: { id: string },
    funnel: { steps: FunnelStep[]; windowHours: number },
    options: CheckedReportOptions,
  ) {
    const today = dayIn(options.timezone, clock.now());
    const firstDay = options.dateRange === 'all' ? await firstVisitDay(db, site.id, options.timezone) : null;
    const { from, to } = resolveDateRange(options.dateRange, today, firstDay);
    const breakdown = options.breakdown ?? null;
    const rows = await readFunnelReport(
      { db, clickhouse },
      {
        siteId: site.id,
        steps: funnel.steps,
        windowHours: funnel.windowHours,
        from,
        to,
        timezone: options.timezone,
        breakdown,
        filters: options.filters,
      },
    );
    return {
      steps: stepFigures(
        funnel.steps,
        rows.find((row) => !row.isGroup),
      ),
      breakdown: breakdown ? breakdownFigures(funnel.steps, rows) : null,
      meta: { date_range: [from, to] as [string, string], window_hours: funnel.windowHours },
    };
  };
}
