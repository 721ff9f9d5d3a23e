/**
 * The names a stats query may use (DESIGN.md §7). This slice answers visit metrics and visit and
 * time dimensions; the other names of §7 are refused as unknown until they are built.
 */
export const METRICS = [
  'visitors',
  'visits',
  'pageviews',
  'views_per_visit',
  'bounce_rate',
  'visit_duration',
] as const;
export type Metric = (typeof METRICS)[number];

export const TIME_DIMENSIONS = ['time:hour', 'time:day', 'time:week', 'time:month'] as const;
export type TimeDimension = (typeof TIME_DIMENSIONS)[number];

export const VISIT_DIMENSIONS = [
  'visit:channel',
  'visit:ai_source',
  'visit:source_kind',
  'visit:referrer',
  'visit:entry_page',
  'visit:country',
  'visit:device',
  'visit:browser',
  'visit:os',
] as const;
export type VisitDimension = (typeof VISIT_DIMENSIONS)[number];

export const DIMENSIONS = [...TIME_DIMENSIONS, ...VISIT_DIMENSIONS] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const DATE_RANGE_KEYWORDS = ['day', '7d', '30d', 'month', '12mo', 'year', 'all'] as const;
export type DateRangeKeyword = (typeof DATE_RANGE_KEYWORDS)[number];

export const FILTER_OPERATORS = ['is', 'is_not', 'contains', 'matches'] as const;
export const COMPARISONS = ['previous_period', 'year_over_year'] as const;
export type Comparison = (typeof COMPARISONS)[number];

export const FILTER_GROUPS = ['and', 'or', 'not'] as const;

export const isTimeDimension = (name: string): name is TimeDimension =>
  (TIME_DIMENSIONS as readonly string[]).includes(name);
export const isVisitDimension = (name: string): name is VisitDimension =>
  (VISIT_DIMENSIONS as readonly string[]).includes(name);

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const MAX_RANGE_YEARS = 5;
/** A visit with one pageview, no custom event and less engaged time than this is a bounce. */
export const BOUNCE_ENGAGED_SECONDS = 10;
