/**
 * The view of a site's reports lives in the URL, so a view can be shared and the back button
 * works: `?range=30d&compare=previous_period&channel=ai&page=/pricing`. Each filter is one
 * parameter named after its dimension (FILTER_KEYS) holding the value it `is`.
 */
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import type { AttributionModel, StatsFilter, StatsQuery } from '../api/types';

export const MODELS: { key: AttributionModel; label: string }[] = [
  { key: 'first_touch', label: 'First touch' },
  { key: 'last_touch', label: 'Last touch' },
  { key: 'linear', label: 'Linear' },
  { key: 'time_decay', label: 'Time decay' },
];

export const RANGES = [
  { key: 'day', label: 'Today' },
  { key: '7d', label: 'Last 7 days' },
  { key: '30d', label: 'Last 30 days' },
  { key: 'month', label: 'This month' },
  { key: '12mo', label: 'Last 12 months' },
  { key: 'custom', label: 'Custom range' },
] as const;
export type RangeKey = (typeof RANGES)[number]['key'];

/** URL parameter → stats dimension, and the words a filter chip uses for it. */
export const FILTER_KEYS = {
  channel: { dimension: 'visit:channel', label: 'Channel' },
  ai_source: { dimension: 'visit:ai_source', label: 'AI assistant' },
  referrer: { dimension: 'visit:referrer', label: 'Source' },
  utm_source: { dimension: 'visit:utm_source', label: 'UTM source' },
  utm_medium: { dimension: 'visit:utm_medium', label: 'UTM medium' },
  utm_campaign: { dimension: 'visit:utm_campaign', label: 'Campaign' },
  page: { dimension: 'event:page', label: 'Page' },
  entry_page: { dimension: 'visit:entry_page', label: 'Entry page' },
  exit_page: { dimension: 'visit:exit_page', label: 'Exit page' },
  country: { dimension: 'visit:country', label: 'Country' },
  city: { dimension: 'visit:city', label: 'City' },
  device: { dimension: 'visit:device', label: 'Device' },
  browser: { dimension: 'visit:browser', label: 'Browser' },
  os: { dimension: 'visit:os', label: 'OS' },
  goal: { dimension: 'event:goal', label: 'Goal' },
} as const;
export type FilterKey = keyof typeof FILTER_KEYS;
const FILTER_KEY_NAMES = Object.keys(FILTER_KEYS) as FilterKey[];

export const filterKeyOf = (dimension: string): FilterKey | undefined =>
  FILTER_KEY_NAMES.find((key) => FILTER_KEYS[key].dimension === dimension);

export interface ViewState {
  range: RangeKey;
  /** Inclusive days of a custom range. */
  from?: string;
  to?: string;
  compare: boolean;
  filters: { key: FilterKey; value: string }[];
  /** The attribution model money is credited under; the site's own when unset. */
  model?: AttributionModel;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseViewState(search: string): ViewState {
  const params = new URLSearchParams(search);
  const rangeParam = params.get('range');
  let range: RangeKey = RANGES.some((r) => r.key === rangeParam) ? (rangeParam as RangeKey) : '30d';
  const from = params.get('from') ?? undefined;
  const to = params.get('to') ?? undefined;
  if (range === 'custom' && !(from && to && DAY.test(from) && DAY.test(to) && from <= to)) range = '30d';
  return {
    range,
    ...(range === 'custom' ? { from, to } : {}),
    compare: params.get('compare') === 'previous_period',
    ...modelOf(params.get('model')),
    filters: FILTER_KEY_NAMES.filter((key) => params.has(key)).map((key) => ({
      key,
      value: params.get(key) ?? '',
    })),
  };
}

function modelOf(value: string | null): { model?: AttributionModel } {
  const model = MODELS.find((m) => m.key === value)?.key;
  return model ? { model } : {};
}

export function serializeViewState(view: ViewState): string {
  const params = new URLSearchParams();
  if (view.range !== '30d') params.set('range', view.range);
  if (view.range === 'custom' && view.from && view.to) {
    params.set('from', view.from);
    params.set('to', view.to);
  }
  if (view.compare) params.set('compare', 'previous_period');
  if (view.model) params.set('model', view.model);
  for (const { key, value } of view.filters) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The view of the current URL and a setter that pushes a new history entry. */
export function useViewState(): [ViewState, (change: Partial<ViewState>) => void] {
  const search = useSearch();
  const view = parseViewState(search);
  // The fragment stays: a shared view's link token lives there.
  const update = (change: Partial<ViewState>) =>
    navigate(
      `${window.location.pathname}${serializeViewState({ ...view, ...change })}${window.location.hash}`,
    );
  return [view, update];
}

export function withFilter(view: ViewState, key: FilterKey, value: string): ViewState['filters'] {
  return [...view.filters.filter((f) => f.key !== key), { key, value }];
}

/** The stats query parts every report of the view shares. */
export function queryScope(view: ViewState): Pick<StatsQuery, 'date_range' | 'filters' | 'timezone'> {
  const filters: StatsFilter[] = view.filters.map(({ key, value }) => [
    'is',
    FILTER_KEYS[key].dimension,
    [value],
  ]);
  return {
    // A custom range without its days reads as the last 30 days, as in `parseViewState`.
    date_range: view.range !== 'custom' ? view.range : view.from && view.to ? [view.from, view.to] : '30d',
    ...(filters.length ? { filters } : {}),
    // Reports are in UTC: a shared view shows everyone the same figures, and UTC days are the
    // ones the server keeps rolled up (DESIGN.md §7), so long ranges stay fast.
    timezone: 'UTC',
  };
}

/** The time bucket that suits a range: hours for a day, months for a year, else days. */
export function intervalOf(view: ViewState): 'time:hour' | 'time:day' | 'time:month' {
  if (view.range === 'day') return 'time:hour';
  if (view.range === '12mo') return 'time:month';
  if (view.range === 'custom' && view.from && view.to) {
    const days = (Date.parse(view.to) - Date.parse(view.from)) / 86_400_000;
    if (days < 1) return 'time:hour';
    if (days > 120) return 'time:month';
  }
  return 'time:day';
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The view's range as inclusive UTC days, for the reports that take `from` and `to` (revenue,
 * conversions, crawlers) rather than a range keyword; the same days the stats query resolves.
 */
export function dateWindow(view: ViewState, now = new Date()): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const to = isoDay(today);
  switch (view.range) {
    case 'day':
      return { from: to, to };
    case '7d':
      return { from: isoDay(today - 6 * DAY_MS), to };
    case 'month':
      return { from: isoDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), to };
    case '12mo':
      return { from: isoDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)), to };
    case 'custom':
      return view.from && view.to
        ? { from: view.from, to: view.to }
        : { from: isoDay(today - 29 * DAY_MS), to };
    default:
      return { from: isoDay(today - 29 * DAY_MS), to };
  }
}
