/**
 * Which rows answer each metric of a query, and which metric cannot be broken down or filtered
 * by which dimension (a 422 naming the metric or filter). The one owner of those rules:
 * - visit metrics count visits; by `event:page` the people, visits and pageviews of a page come
 *   from pageview events, and the visit-shaped metrics (bounce rate, duration, views per visit)
 *   have no per-page or per-goal meaning;
 * - `events`, `conversions`, `goal_value` count conversion events, and by `event:goal` or
 *   `event:props:*` so do `visitors` (the people who converted); by a source dimension a
 *   conversion counts for its credited source (conversion-grain.sql.ts);
 * - `conversion_rate` is people with a conversion during a visit over visitors (the visitors of
 *   the same time and visit groups; by goal, all of them);
 * - revenue comes from the daily revenue rollup, which knows the credited source only.
 */
import { badInput } from '../http/errors.js';
import type { ConversionCount } from './conversion-grain.sql.js';
import { type Filter, filterLeaves } from './filters.js';
import type { PageviewMetric } from './pageview-grain.sql.js';
import type { Dimension, Metric, VisitMetric } from './stats-vocabulary.js';
import { isEventDimension, isRevenueMetric } from './stats-vocabulary.js';

export interface StatsPlan {
  visit: VisitMetric[];
  pageview: PageviewMetric[];
  conversion: ConversionCount[];
  goalValue: boolean;
  revenue: boolean;
  /** `conversion_rate` asked: visitors by the query's time and visit dimensions are read too. */
  rate: boolean;
}

const REVENUE_DIMENSIONS: readonly string[] = [
  'time:day',
  'time:week',
  'time:month',
  'visit:channel',
  'visit:ai_source',
];
const REVENUE_FILTERS: readonly string[] = ['visit:channel', 'visit:ai_source'];
const PER_VISIT: readonly Metric[] = ['views_per_visit', 'bounce_rate', 'visit_duration'];

export function planMetrics(metrics: Metric[], dimensions: Dimension[], filters: Filter[]): StatsPlan {
  const byPage = dimensions.includes('event:page');
  const byConversion = dimensions.find((name) => isEventDimension(name) && name !== 'event:page');
  if (byPage && byConversion) {
    throw badInput(
      `dimensions.${dimensions.indexOf(byConversion)}`,
      `dimensions.${dimensions.indexOf(byConversion)}: ${byConversion} cannot be combined with event:page in one query`,
    );
  }
  const plan: StatsPlan = {
    visit: [],
    pageview: [],
    conversion: [],
    goalValue: false,
    revenue: false,
    rate: false,
  };
  metrics.forEach((metric, i) => {
    const refuse = (by: string, instead: string) => {
      throw badInput(`metrics.${i}`, `metrics.${i}: ${metric} cannot be broken down by ${by}; ${instead}`);
    };
    if (isRevenueMetric(metric)) {
      const other = dimensions.find((name) => !REVENUE_DIMENSIONS.includes(name));
      if (other) refuse(other, `revenue breaks down by ${REVENUE_DIMENSIONS.join(', ')}`);
      const leaf = filters.flatMap(filterLeaves).find((f) => !REVENUE_FILTERS.includes(f.dimension));
      if (leaf) {
        throw badInput(
          'filters',
          `filters: ${metric} can be filtered by ${REVENUE_FILTERS.join(' and ')} only`,
        );
      }
      plan.revenue = true;
    } else if (metric === 'events' || metric === 'conversions') {
      plan.conversion.push(metric);
    } else if (metric === 'goal_value') {
      plan.goalValue = true;
    } else if (metric === 'conversion_rate') {
      if (byPage) refuse('event:page', 'break conversions down by event:goal or a visit dimension');
      plan.conversion.push('converters');
      plan.rate = true;
    } else if (PER_VISIT.includes(metric)) {
      const by = dimensions.find(isEventDimension);
      if (by) refuse(by, 'it describes whole visits');
      plan.visit.push(metric as VisitMetric);
    } else if (byPage) {
      plan.pageview.push(metric as PageviewMetric);
    } else if (byConversion) {
      if (metric !== 'visitors') refuse(byConversion, 'use visitors, events or conversions');
      plan.conversion.push('visitors');
    } else {
      plan.visit.push(metric as VisitMetric);
    }
  });
  return plan;
}

/** A plan the database can order and page by itself: one grain, no figure made afterwards. */
export const isSingleGrain = (plan: StatsPlan) =>
  plan.conversion.length === 0 &&
  !plan.goalValue &&
  !plan.revenue &&
  (plan.visit.length === 0) !== (plan.pageview.length === 0);
