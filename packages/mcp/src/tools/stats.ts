/**
 * `query_stats` (POST /v1/stats/query) and `get_realtime`. The stats answer's rows come back as
 * objects keyed by dimension and metric name, each metric's unit named once in `units`.
 */
import { STATS_METRICS, unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, minorUnits, READS, type ToolSet } from '../tool-kit.js';
import {
  attributionModel,
  DATE_RANGE_KEYWORDS,
  day,
  filters,
  type QueryOf,
  type StatsBody,
  siteId,
  timezone,
} from './inputs.js';

interface StatsFigures {
  dimensions: (string | null)[];
  metrics: number[];
}
interface StatsAnswer {
  results: (StatsFigures & { comparison?: StatsFigures & { change: (number | null)[] } })[];
  meta: object;
  query: { dimensions: string[]; metrics: string[] };
}

type Metric = (typeof STATS_METRICS)[number];

/** The named dimensions; `event:props:<key>` is open-ended, so the API types cannot list them. */
const DIMENSIONS = [
  'time:hour',
  'time:day',
  'time:week',
  'time:month',
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
  'event:page',
  'event:goal',
] as const;

const METRIC_UNITS: Record<Metric, (currency: string) => string> = {
  visitors: () => 'people (signed-in identities merged)',
  visits: () => 'count',
  pageviews: () => 'count',
  views_per_visit: () => 'pageviews per visit',
  bounce_rate: () => 'percent of visits, one decimal',
  visit_duration: () => 'seconds of engaged time per visit (mean)',
  events: () => 'count',
  conversions: () => 'count, gross of refunds',
  conversion_rate: () => 'percent of visitors, one decimal',
  goal_value: minorUnits,
  revenue_net: minorUnits,
  revenue_refunded: minorUnits,
};

export function addStatsTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('query_stats', {
    title: 'Query traffic, conversions and revenue',
    description:
      'The main report: metrics over a date range, optionally grouped by up to 3 dimensions and filtered. ' +
      'Channels treat AI assistants as first-class: `visit:channel` is ai, search, social, email, paid, ' +
      'referral or direct; `visit:ai_source` names the assistant (chatgpt, perplexity, claude, …). Examples: ' +
      'visitors by channel for 30d; revenue_net by visit:ai_source; pageviews by event:page (top pages); ' +
      'visitors by time:day for a trend. Revenue is credited under the site’s attribution model unless ' +
      '`attribution_model` says otherwise.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      metrics: z
        .array(z.enum(STATS_METRICS))
        .min(1)
        .describe('What to count; each row holds these, units in `units`'),
      date_range: z
        .union([z.enum(DATE_RANGE_KEYWORDS), z.tuple([day, day])])
        .describe(
          '`day`, `7d`, `30d`, `month`, `12mo`, `year`, `all` (ending today), or inclusive ["YYYY-MM-DD","YYYY-MM-DD"]',
        ),
      dimensions: z
        .array(z.union([z.enum(DIMENSIONS), z.string().startsWith('event:props:')]))
        .max(3)
        .optional()
        .describe('Group by these (none: one total row); `event:props:<key>` groups by a goal property'),
      filters,
      order_by: z
        .array(z.tuple([z.string(), z.enum(['asc', 'desc'])]))
        .max(8)
        .optional()
        .describe(
          '[[metric or dimension, "asc"|"desc"], …]; default time ascending, else first metric descending',
        ),
      limit: z.number().int().min(1).max(1000).optional().describe('Rows to return, 1 to 1000; default 100'),
      timezone,
      attribution_model: attributionModel,
      compare: z
        .enum(['previous_period', 'year_over_year'])
        .optional()
        .describe('Put each row beside the same group in an earlier range, with the change in percent'),
    },
    run: async (input) => {
      const stats = await unwrap(
        client.POST('/v1/stats/query', {
          body: {
            site_id: input.site_id,
            metrics: input.metrics,
            date_range: input.date_range,
            dimensions: input.dimensions,
            filters: input.filters,
            order_by: input.order_by,
            limit: input.limit,
            timezone: input.timezone,
            attribution_model: input.attribution_model,
            include: { total_rows: true, comparison: input.compare },
          } satisfies StatsBody,
        }),
      );
      return answer(
        statsRows(stats),
        unitsOf(input.metrics, stats.meta.currency, input.compare !== undefined),
      );
    },
  });

  tools.add('get_realtime', {
    title: 'Visitors right now',
    description:
      'Who is on the site now: visitors active in the last 5 minutes, their top pages and sources (AI ' +
      'assistants apart), and pageviews and visitors per minute for the last 30 minutes (UTC).',
    scope: 'stats:read',
    annotations: READS,
    input: { site_id: siteId },
    run: async ({ site_id }) => {
      const now = await unwrap(
        client.GET('/v1/stats/realtime', {
          params: { query: { site_id } satisfies QueryOf<'/v1/stats/realtime', 'get'> },
        }),
      );
      return answer(now, {
        visitors: 'distinct visitors active in the last 5 minutes',
        per_minute: 'clock minutes in UTC, oldest first',
      });
    },
  });
}

/** Rows as `{dimension: value, …, metric: number, …}`, with the answer's meta. */
function statsRows(stats: StatsAnswer) {
  const { dimensions, metrics } = stats.query;
  const named = (names: string[], values: (string | number | null)[]) =>
    Object.fromEntries(names.map((name, i) => [name, values[i] ?? null]));
  const rows = stats.results.map((row) => ({
    ...named(dimensions, row.dimensions),
    ...named(metrics, row.metrics),
    ...(row.comparison
      ? {
          comparison: {
            ...named(dimensions, row.comparison.dimensions),
            ...named(metrics, row.comparison.metrics),
            change_percent: named(metrics, row.comparison.change),
          },
        }
      : {}),
  }));
  return { rows, meta: stats.meta };
}

function unitsOf(metrics: readonly Metric[], currency: string, isCompared: boolean): Record<string, string> {
  const units = Object.fromEntries(metrics.map((metric) => [metric, METRIC_UNITS[metric](currency)]));
  return isCompared
    ? { ...units, change_percent: 'percent change from the earlier range; null when it was 0' }
    : units;
}
