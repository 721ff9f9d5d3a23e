/**
 * The names a stats query may use (DESIGN.md §7). Which metric can be broken down or filtered by
 * which dimension is decided in metric-rules.ts.
 */
export const VISIT_METRICS = [
  'visitors',
  'visits',
  'pageviews',
  'views_per_visit',
  'bounce_rate',
  'visit_duration',
] as const;
export const CONVERSION_METRICS = ['events', 'conversions', 'conversion_rate', 'goal_value'] as const;
export const REVENUE_METRICS = ['revenue_net', 'revenue_refunded'] as const;
export const METRICS = [...VISIT_METRICS, ...CONVERSION_METRICS, ...REVENUE_METRICS] as const;
export type Metric = (typeof METRICS)[number];
export type VisitMetric = (typeof VISIT_METRICS)[number];
export type ConversionMetric = (typeof CONVERSION_METRICS)[number];
export type RevenueMetric = (typeof REVENUE_METRICS)[number];

export const TIME_DIMENSIONS = ['time:hour', 'time:day', 'time:week', 'time:month'] as const;
export type TimeDimension = (typeof TIME_DIMENSIONS)[number];

export const VISIT_DIMENSIONS = [
  'visit:channel',
  'visit:ai_source',
  'visit:source_kind',
  'visit:referrer',
  'visit:utm_source',
  'visit:utm_medium',
  'visit:utm_campaign',
  'visit:utm_content',
  'visit:utm_term',
  'visit:entry_page',
  'visit:exit_page',
  'visit:country',
  'visit:city',
  'visit:device',
  'visit:browser',
  'visit:os',
  'visit:new_vs_returning',
] as const;
export type VisitDimension = (typeof VISIT_DIMENSIONS)[number];

/** `event:props:<key>`: a property of conversion events, by key. */
export const PROPS_PREFIX = 'event:props:';
export const MAX_PROPERTY_KEY_CHARS = 100;
export type PropertyDimension = `event:props:${string}`;
export type EventDimension = 'event:page' | 'event:goal' | PropertyDimension;

export const DIMENSIONS = [...TIME_DIMENSIONS, ...VISIT_DIMENSIONS, 'event:page', 'event:goal'] as const;
export type Dimension = (typeof DIMENSIONS)[number] | PropertyDimension;

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
export const isPropertyDimension = (name: string): name is PropertyDimension =>
  name.startsWith(PROPS_PREFIX) &&
  name.length > PROPS_PREFIX.length &&
  name.length <= PROPS_PREFIX.length + MAX_PROPERTY_KEY_CHARS;
export const isEventDimension = (name: string): name is EventDimension =>
  name === 'event:page' || name === 'event:goal' || isPropertyDimension(name);
export const isDimension = (name: string): name is Dimension =>
  isTimeDimension(name) || isVisitDimension(name) || isEventDimension(name);
export const isRevenueMetric = (name: Metric): name is RevenueMetric =>
  (REVENUE_METRICS as readonly string[]).includes(name);
export const isConversionMetric = (name: Metric): name is ConversionMetric =>
  (CONVERSION_METRICS as readonly string[]).includes(name);

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const MAX_RANGE_YEARS = 5;
/** A visit with one pageview, no custom event and less engaged time than this is a bounce. */
export const BOUNCE_ENGAGED_SECONDS = 10;
