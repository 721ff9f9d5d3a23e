/**
 * Whether a stats query can add imported days (DESIGN.md §14), and the reason when it cannot,
 * for `meta.imports_skipped_reason`. Imports hold daily counts per UTC day for one dimension at a
 * time, with no link between dimensions and no people: a query in another zone, by hour, by two
 * dimensions, with a filter, or asking for a figure they do not hold is answered from live
 * traffic alone. The conversion rate needs people who converted, which imports do not hold.
 */
import type { Filter } from '../filters.js';
import type { StatsPlan } from '../metric-rules.js';
import { type Dimension, isTimeDimension, type Metric } from '../stats-vocabulary.js';

export const IMPORTS_SKIPPED_REASONS = [
  'no_imported_data',
  'out_of_range',
  'unsupported_timezone',
  'unsupported_interval',
  'unsupported_dimension',
  'unsupported_filter',
  'unsupported_metric',
] as const;
export type ImportsSkippedReason = (typeof IMPORTS_SKIPPED_REASONS)[number];

/** The dimensions imports hold, each as its own rows of `imported_days`. */
export const IMPORTED_DIMENSIONS: readonly string[] = [
  'visit:channel',
  'visit:ai_source',
  'visit:referrer',
  'visit:utm_source',
  'visit:utm_medium',
  'visit:utm_campaign',
  'visit:utm_content',
  'visit:utm_term',
  'visit:entry_page',
  'visit:exit_page',
  'visit:country',
  'visit:device',
  'visit:browser',
  'visit:os',
  'event:page',
  'event:goal',
];

/** Money: imports hold none, so they add nothing to it, exactly (revenue by channel shows imported visits beside it). */
const MONEY: readonly Metric[] = ['revenue_net', 'revenue_refunded', 'goal_value'];
const VISIT_FIGURES: readonly Metric[] = [
  'visitors',
  'visits',
  'pageviews',
  'views_per_visit',
  'bounce_rate',
  'visit_duration',
  ...MONEY,
];
/** Without a dimension, the goals' events add up to the site's. */
const TOTAL_FIGURES: readonly Metric[] = [...VISIT_FIGURES, 'events', 'conversions'];
const PAGE_FIGURES: readonly Metric[] = ['visitors', 'visits', 'pageviews'];
const GOAL_FIGURES: readonly Metric[] = ['visitors', 'events', 'conversions', ...MONEY];

export interface ImportsShape {
  /** The `imported_days.dimension` the groups come from: '' for the day totals. */
  dimension: string;
}

export function importsShape(q: {
  timezone: string;
  dimensions: Dimension[];
  metrics: Metric[];
  filters: Filter[];
  plan: StatsPlan;
}): ImportsShape | ImportsSkippedReason {
  if (q.timezone !== 'UTC') return 'unsupported_timezone';
  if (q.dimensions.includes('time:hour')) return 'unsupported_interval';
  const others = q.dimensions.filter((name) => !isTimeDimension(name));
  const [other] = others;
  if (others.length > 1 || (other !== undefined && !IMPORTED_DIMENSIONS.includes(other))) {
    return 'unsupported_dimension';
  }
  if (q.filters.length > 0) return 'unsupported_filter';
  const figures =
    other === undefined
      ? TOTAL_FIGURES
      : other === 'event:page'
        ? PAGE_FIGURES
        : other === 'event:goal'
          ? GOAL_FIGURES
          : VISIT_FIGURES;
  if (q.metrics.some((metric) => !figures.includes(metric))) return 'unsupported_metric';
  return { dimension: other ?? '' };
}
