/**
 * Turns the `stats` flags into the body of `POST /v1/stats/query` (DESIGN.md §7). Short names
 * are accepted where they are unambiguous: `channel` is `visit:channel`, `page` is `event:page`,
 * `day` is `time:day`, `props:plan` is `event:props:plan`.
 */
import { DATE_RANGE_KEYWORDS, STATS_METRICS } from '@touchtrail/client';
import { InvalidArgumentError } from 'commander';

export const METRICS: readonly string[] = STATS_METRICS;
const RANGE_KEYWORDS: readonly string[] = DATE_RANGE_KEYWORDS;
const EVENT_SHORT = ['page', 'goal'];
const TIME_SHORT = ['hour', 'day', 'week', 'month'];

export function dimensionName(name: string): string {
  if (/^(visit|event|time):/.test(name)) return name;
  if (name.startsWith('props:')) return `event:${name}`;
  if (EVENT_SHORT.includes(name)) return `event:${name}`;
  if (TIME_SHORT.includes(name)) return `time:${name}`;
  if (name === 'source') return 'visit:referrer';
  return `visit:${name}`;
}

/** `30d`, `2026-11-01..2026-11-28` or `2026-11-01,2026-11-28`. */
export function parseRange(value: string): string | [string, string] {
  if (RANGE_KEYWORDS.includes(value)) return value;
  const days = value.split(/\.\.|,/);
  if (days.length === 2 && days.every((day) => /^\d{4}-\d{2}-\d{2}$/.test(day)))
    return days as [string, string];
  throw new InvalidArgumentError(
    `expected ${RANGE_KEYWORDS.join(', ')} or FROM..TO dates (2026-11-01..2026-11-28).`,
  );
}

type Filter = [string, string, string[]];

/**
 * `channel=ai`, `channel=ai,search`, `country!=DE`, `page~blog` (contains), `page=/blog/*`
 * (a `*` pattern matches).
 */
export function parseFilter(value: string, previous: Filter[] = []): Filter[] {
  const match = /^([a-z_:]+[a-z0-9_:.-]*?)(!=|~|=)(.+)$/i.exec(value);
  if (!match) throw new InvalidArgumentError('expected dimension=value, dimension!=value or dimension~text.');
  const [, name = '', sign, text = ''] = match;
  const values = text.split(',');
  const operator =
    sign === '!='
      ? 'is_not'
      : sign === '~'
        ? 'contains'
        : values.some((v) => v.includes('*'))
          ? 'matches'
          : 'is';
  return [...previous, [operator, dimensionName(name), values]];
}

/** The `filters` query parameter of the list endpoints (sessions, events, visitors): the stats query's list as JSON. */
export function filtersParam(filters: readonly unknown[] | undefined): { filters?: string } {
  return filters ? { filters: JSON.stringify(filters) } : {};
}

/** `visitors:desc`, `channel:asc` (default descending). */
export function parseOrder(
  value: string,
  previous: [string, 'asc' | 'desc'][] = [],
): [string, 'asc' | 'desc'][] {
  const match = /^(.+?)(?::(asc|desc))?$/.exec(value);
  const name = match?.[1] ?? value;
  const direction = (match?.[2] as 'asc' | 'desc' | undefined) ?? 'desc';
  return [...previous, [METRICS.includes(name) ? name : dimensionName(name), direction]];
}

export function parseMetrics(value: string): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !METRICS.includes(name));
  if (names.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(
      `unknown metric ${unknown.join(', ') || '(none)'}; choose from ${METRICS.join(', ')}.`,
    );
  return names;
}

export interface StatsFlags {
  range: string | [string, string];
  metrics: string[];
  by?: string[];
  filter?: Filter[];
  order?: [string, 'asc' | 'desc'][];
  timezone?: string;
  model?: string;
  limit?: number;
  compare?: string;
  total?: boolean;
}

export function queryBody(siteId: string, flags: StatsFlags) {
  return {
    site_id: siteId,
    metrics: flags.metrics,
    date_range: flags.range,
    ...(flags.by?.length ? { dimensions: flags.by.map(dimensionName) } : {}),
    ...(flags.filter?.length ? { filters: flags.filter } : {}),
    ...(flags.order?.length ? { order_by: flags.order } : {}),
    ...(flags.timezone ? { timezone: flags.timezone } : {}),
    ...(flags.model ? { attribution_model: flags.model } : {}),
    ...(flags.limit ? { limit: flags.limit } : {}),
    ...(flags.compare || flags.total
      ? {
          include: {
            ...(flags.total ? { total_rows: true } : {}),
            ...(flags.compare ? { comparison: flags.compare } : {}),
          },
        }
      : {}),
  };
}
