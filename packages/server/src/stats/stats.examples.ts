/**
 * Examples of `POST /v1/stats/query` for the OpenAPI document, one per common shape: money and
 * people by assistant, and a daily series against the period before. Each parses with its schema.
 */

const SITE_KEY = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';

/** Visitors, conversions and net revenue of the AI channel by assistant, last 30 days. */
export const aiRevenueQueryExample = {
  site_id: SITE_KEY,
  metrics: ['visitors', 'conversions', 'revenue_net'],
  date_range: '30d',
  dimensions: ['visit:ai_source'],
  filters: [['is', 'visit:channel', ['ai']]],
  order_by: [['revenue_net', 'desc']],
  timezone: 'Europe/Berlin',
  attribution_model: 'last_touch',
  limit: 10,
  include: { total_rows: true },
};

/** Visitors, pageviews and bounce rate per day of one week in two countries, beside the week before. */
export const dailyComparisonQueryExample = {
  site_id: SITE_KEY,
  metrics: ['visitors', 'pageviews', 'bounce_rate'],
  date_range: ['2026-11-16', '2026-11-22'],
  dimensions: ['time:day'],
  filters: [['is', 'visit:country', ['DE', 'AT']]],
  timezone: 'Europe/Berlin',
  include: { comparison: 'previous_period' },
};

/** Named examples of the query body (`x-examples`). */
export const statsQueryExamples = {
  aiRevenueByAssistant: {
    summary: 'Visitors, conversions and net revenue from AI assistants, by assistant, last 30 days',
    value: aiRevenueQueryExample,
  },
  dailyWithComparison: {
    summary: 'Visitors, pageviews and bounce rate per day of a week in two countries, beside the week before',
    value: dailyComparisonQueryExample,
  },
};

export const aiRevenueAnswerExample = {
  results: [
    { dimensions: ['chatgpt'], metrics: [412, 37, 184250] },
    { dimensions: ['perplexity'], metrics: [97, 9, 40100] },
    { dimensions: ['claude'], metrics: [61, 4, 15600] },
  ],
  meta: {
    date_range: ['2026-10-27', '2026-11-25'],
    total_rows: 3,
    currency: 'EUR',
    engine: 'postgres',
    approximate: [],
  },
  query: {
    ...aiRevenueQueryExample,
    date_range: ['2026-10-27', '2026-11-25'],
    offset: 0,
    include: { total_rows: true, comparison: null, imports: false },
  },
};

const DAYS = [
  '2026-11-16',
  '2026-11-17',
  '2026-11-18',
  '2026-11-19',
  '2026-11-20',
  '2026-11-21',
  '2026-11-22',
];
const WEEK_BEFORE = [
  '2026-11-09',
  '2026-11-10',
  '2026-11-11',
  '2026-11-12',
  '2026-11-13',
  '2026-11-14',
  '2026-11-15',
];
const NOW = [
  [184, 402, 41.3],
  [201, 455, 39.8],
  [176, 380, 44.0],
  [190, 421, 40.5],
  [158, 330, 46.2],
  [97, 188, 51.0],
  [105, 214, 48.6],
];
const BEFORE = [
  [160, 351, 43.1],
  [188, 430, 40.2],
  [176, 372, 42.9],
  [171, 398, 42.1],
  [149, 301, 47.7],
  [90, 170, 52.2],
  [84, 190, 50.0],
];
const change = (now: number, before: number) =>
  before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10;

export const dailyComparisonAnswerExample = {
  results: DAYS.map((day, i) => {
    const now = NOW[i] as number[];
    const before = BEFORE[i] as number[];
    return {
      dimensions: [day],
      metrics: now,
      comparison: {
        dimensions: [WEEK_BEFORE[i] as string],
        metrics: before,
        change: now.map((value, m) => change(value, before[m] as number)),
      },
    };
  }),
  meta: {
    date_range: ['2026-11-16', '2026-11-22'],
    comparison_range: ['2026-11-09', '2026-11-15'],
    currency: 'EUR',
    engine: 'postgres',
    approximate: [],
  },
  query: {
    ...dailyComparisonQueryExample,
    dimensions: ['time:day'],
    order_by: [['time:day', 'asc']],
    attribution_model: 'last_touch',
    limit: 100,
    offset: 0,
    include: { total_rows: false, comparison: 'previous_period', imports: false },
  },
};

/** Named examples of the answer (`x-examples`), one per query example. */
export const statsAnswerExamples = {
  aiRevenueByAssistant: {
    summary: 'By assistant, money in minor units of EUR',
    value: aiRevenueAnswerExample,
  },
  dailyWithComparison: {
    summary: 'Each day beside the same weekday before',
    value: dailyComparisonAnswerExample,
  },
};
