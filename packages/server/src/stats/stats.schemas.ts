/** Body and answer of `POST /v1/stats/query`; the descriptions are the endpoint's documentation. */
import { z } from 'zod';
import { ATTRIBUTION_MODELS } from '../attribution/models.js';
import { siteRefSchema } from '../http/schemas.js';
import { daySchema } from '../lib/day-window.js';
import { MAX_FILTERS } from '../reporting/filters.js';
import { IMPORTS_SKIPPED_REASONS } from '../reporting/imports/imports-plan.js';
import { quoted } from '../reporting/quoted.js';
import {
  COMPARISONS,
  DATE_RANGE_KEYWORDS,
  DEFAULT_LIMIT,
  DIMENSIONS,
  MAX_LIMIT,
  MAX_PROPERTY_KEY_CHARS,
  MAX_RANGE_YEARS,
  METRICS,
  PROPS_PREFIX,
} from '../reporting/stats-vocabulary.js';
import { aiRevenueQueryExample, statsAnswerExamples, statsQueryExamples } from './stats.examples.js';

const dimensionName = z.union(
  [
    z.enum(DIMENSIONS),
    z
      .string()
      .startsWith(PROPS_PREFIX)
      .min(PROPS_PREFIX.length + 1)
      .max(PROPS_PREFIX.length + MAX_PROPERTY_KEY_CHARS)
      .transform((name) => name as `event:props:${string}`),
  ],
  {
    error: (issue) =>
      typeof issue.input === 'string' && issue.input.startsWith(PROPS_PREFIX)
        ? `${quoted(issue.input)} needs a property key of 1 to ${MAX_PROPERTY_KEY_CHARS} characters`
        : `unknown dimension ${quoted(issue.input)}`,
  },
);

const orderDirection = z.enum(['asc', 'desc']);

/** The documented query, which the contract test also sends. */
export const statsQueryBodyExample = aiRevenueQueryExample;

export const statsQueryBody = z
  .strictObject({
    site_id: siteRefSchema,
    metrics: z
      .array(z.enum(METRICS, { error: (issue) => `unknown metric ${quoted(issue.input)}` }))
      .min(1)
      .max(METRICS.length)
      .describe(
        'Visits: `visitors` (people with a visit in the range, signed-in identities merged, exact), `visits`, ' +
          '`pageviews`, `views_per_visit` (two decimals), `visit_duration` (mean engaged seconds per visit, whole ' +
          'seconds), `bounce_rate` (percent, one decimal: visits with one pageview, no custom event and under 10 s ' +
          'engaged). Conversions: `events` (custom and server events the site sent), `conversions` (every conversion ' +
          'event as the conversion listing counts it, payments and trials included, with or without a visit; by ' +
          'channel, assistant or source kind it counts once, for the source `attribution_model` credits it to, the ' +
          'largest share under linear and time_decay, direct with no visit in its 30 days), ' +
          '`conversion_rate` (percent, one decimal: people with a conversion during a visit over visitors), ' +
          '`goal_value` (the summed `value` of the events the site sent). Revenue under `attribution_model`: ' +
          '`revenue_net` (net of refunds) and `revenue_refunded`, booked per UTC day. Money is in minor units of ' +
          '`meta.currency`. By `event:page`, `visitors`, `visits` and `pageviews` count the people, visits and views ' +
          'of each page; by `event:goal` or `event:props:<key>`, `visitors` counts the people who converted and ' +
          'visit-shaped metrics are refused. Each row’s `metrics` are in this order',
      ),
    date_range: z
      .union([z.enum(DATE_RANGE_KEYWORDS), z.tuple([daySchema, daySchema])], {
        error: `must be one of ${DATE_RANGE_KEYWORDS.join(', ')} or two dates [from, to]`,
      })
      .describe(
        'A keyword ending today in `timezone` (`day`; `7d` and `30d` count today; `month`, `12mo` and `year` start ' +
          'at the first of the month, of the month 11 months back, of the year; `all` at the site’s first visit) or ' +
          `two inclusive dates \`[from, to]\` spanning at most ${MAX_RANGE_YEARS} years`,
      ),
    dimensions: z
      .array(dimensionName)
      .max(3)
      .optional()
      .describe(
        'Group by these (none: one aggregate row). Time buckets are written as their first moment in `timezone` ' +
          '(`2026-03-02`, hours `2026-03-02 14:00:00`; weeks start on Monday); buckets without visits are left out. ' +
          '`visit:channel` is `ai` or `search`, `social`, `email`, `paid`, `referral`, `direct`; `visit:ai_source` ' +
          'the assistant (null outside the AI channel); `visit:referrer` the referring host; `visit:utm_*` the ' +
          'campaign tags of the landing URL; `visit:entry_page` and `visit:exit_page` the first and last paths of ' +
          'the visit; `visit:new_vs_returning` `new` or `returning`. `event:page` is the path of each pageview, ' +
          '`event:goal` the name of each conversion event (payments and trials as `payment` and `trial`, which are not ' +
          'goals, so a breakdown adds up to the total) and `event:props:<key>` the value of that property on it. ' +
          'Revenue breaks down by day, week, month, channel and assistant only. Unknown values (no referrer, no ' +
          'country, no such property) are null',
      ),
    filters: z
      .array(z.unknown())
      .max(MAX_FILTERS)
      .optional()
      .describe(
        'All must hold. A filter is `[operator, dimension, values]` on a `visit:` or `event:` dimension, true when ' +
          'any value holds (an event dimension filters visits to those with such an event, and events themselves ' +
          'when the rows are events of that kind: with an `event:page` filter `pageviews` counts the matching ' +
          'pageviews only, and bounce rate, duration and views per visit are those of the matching visits; revenue takes channel and assistant filters only): `is`, `is_not`, `contains` (a substring, any case) or `matches` (the whole value, case-sensitive, ' +
          '`*` standing for any characters and nothing else special; at most 50 patterns of 200 characters). A ' +
          'null value never `is`, contains or matches anything. Groups: `["and", [f, …]]`, `["or", [f, …]]`, `["not", f]`',
      ),
    order_by: z
      .array(z.tuple([z.string(), orderDirection]))
      .max(8)
      .optional()
      .describe(
        '`[[name, "asc"|"desc"], …]` over the requested metrics and dimensions; default the time dimension ' +
          'ascending, else the first metric descending. Ties fall back to the dimensions ascending',
      ),
    timezone: z
      .string()
      .max(64)
      .optional()
      .describe('IANA time zone for the date range and the time buckets; default UTC'),
    attribution_model: z
      .enum(ATTRIBUTION_MODELS)
      .optional()
      .describe('The model revenue metrics are credited under; default the site’s'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_LIMIT)
      .optional()
      .describe(`Rows per answer, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}`),
    offset: z.number().int().min(0).max(1_000_000).optional().describe('Rows to skip; default 0'),
    include: z
      .strictObject({
        total_rows: z
          .boolean()
          .optional()
          .describe('Put the number of rows before limit and offset in `meta.total_rows`'),
        comparison: z
          .enum(COMPARISONS)
          .optional()
          .describe(
            'Set each row beside the same group in an earlier range: `previous_period` (as many days just before) ' +
              'or `year_over_year` (the same dates a year earlier), named in `meta.comparison_range`. Time buckets ' +
              'match the bucket at the same offset from the start of the earlier range',
          ),
        imports: z
          .boolean()
          .optional()
          .describe(
            'Add the days imported from another tool (`/v1/sites/{siteId}/imports`; the dashboard asks for them). ' +
              'Imports hold daily counts per UTC day and one dimension at a time, so they are added to a query in ' +
              'UTC, by day, week or month or no time, by at most one of their dimensions (channel, assistant, ' +
              'referrer, utm tags, entry and exit page, country, device, browser, OS, page, goal), with no filter, ' +
              'asking for visit figures (by page: visitors, visits, pageviews; by goal or without a dimension also ' +
              'events and conversions) or money, which imports hold none of; `meta.imports_included` says whether they were, `meta.imports_skipped_reason` ' +
              'why not. Imported visitors are counted per day, so over several days `visitors` is listed in ' +
              '`meta.approximate`',
          ),
      })
      .optional(),
  })
  // zod leaves `examples` out of the request side of a schema that transforms; @fastify/swagger
  // also reads named examples from `x-examples`, which zod keeps.
  .meta({ 'x-examples': statsQueryExamples });

export type StatsQueryBody = z.infer<typeof statsQueryBody>;

export const statsAnswerSchema = z
  .object({
    results: z.array(
      z.object({
        dimensions: z.array(z.string().nullable()).describe('Values of the requested dimensions, in order'),
        metrics: z.array(z.number()).describe('Values of the requested metrics, in order'),
        comparison: z
          .object({
            dimensions: z
              .array(z.string().nullable())
              .describe('The earlier group: a time bucket moves back'),
            metrics: z.array(z.number()).describe('Its metrics, zeros where it had no visits'),
            change: z
              .array(z.number().nullable())
              .describe('Change per metric in percent, one decimal; null when the earlier value is 0'),
          })
          .optional()
          .describe('With `include.comparison`'),
      }),
    ),
    meta: z.object({
      date_range: z
        .tuple([z.string(), z.string()])
        .describe('The resolved inclusive days, in `query.timezone`'),
      comparison_range: z
        .tuple([z.string(), z.string()])
        .optional()
        .describe('With `include.comparison`: the earlier inclusive days'),
      total_rows: z
        .number()
        .int()
        .optional()
        .describe('With `include.total_rows`: rows before limit and offset'),
      currency: z.string().describe('The site currency: money metrics are in its minor units'),
      engine: z
        .enum(['postgres', 'clickhouse'])
        .describe(
          'Which engine counted the traffic: `clickhouse` when the server has CLICKHOUSE_URL and ClickHouse ' +
            'answered (with the rows not yet copied read from PostgreSQL), else `postgres`. Money always comes ' +
            'from PostgreSQL',
        ),
      approximate: z
        .array(z.string())
        .describe(
          'Metrics of this answer that are estimates: `visitors` (and `conversion_rate`, whose base they are) ' +
            'when a day of the range had more than 512 people in one group and people were counted from the ' +
            'daily rollups with a HyperLogLog sketch (standard error 1.6%); empty when every figure is exact',
        ),
      imports_included: z
        .boolean()
        .optional()
        .describe('With `include.imports`: whether imported days were added to the figures'),
      imports_skipped_reason: z
        .enum(IMPORTS_SKIPPED_REASONS)
        .optional()
        .describe(
          'With `include.imports` when none were added: `no_imported_data` (the site has none), `out_of_range` ' +
            '(none in the range), or `unsupported_timezone`, `unsupported_interval` (hours), ' +
            '`unsupported_dimension`, `unsupported_filter`, `unsupported_metric` (the query asks what imports do not hold)',
        ),
      unconverted: z
        .array(z.object({ metric: z.string(), currency: z.string(), amount: z.number().int() }))
        .optional()
        .describe(
          'With a money metric: amounts left out because no exchange rate to the site currency was on record ' +
            'for their day, per metric and currency, in minor units of that currency',
        ),
    }),
    query: z
      .object({
        site_id: z.string().describe('The site’s snippet key'),
        metrics: z.array(z.string()),
        date_range: z.tuple([z.string(), z.string()]),
        dimensions: z.array(z.string()),
        filters: z.array(z.unknown()),
        order_by: z.array(z.tuple([z.string(), orderDirection])),
        timezone: z.string(),
        attribution_model: z.enum(ATTRIBUTION_MODELS),
        limit: z.number().int(),
        offset: z.number().int(),
        include: z.object({
          total_rows: z.boolean(),
          comparison: z.enum(COMPARISONS).nullable(),
          imports: z.boolean(),
        }),
      })
      .describe('The query as answered, every default filled in'),
  })
  .meta({
    description: 'One row per group, with the resolved query and what the figures mean',
    // Named like the query's examples they answer.
    'x-examples': statsAnswerExamples,
  });
