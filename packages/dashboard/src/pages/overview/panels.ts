/** What each panel of the overview shows: its tabs, their dimension, columns and words. */
import type { StatsRow } from '../../api/types';
import { formatCount, formatMoney, formatPercent } from '../../lib/format';
import { assistantName, capitalized, channelName, countryName } from '../../lib/names';
import type { PanelColumn, PanelTab } from './ReportPanel';

/** Conversion events the server records for payments (goals/goal-names.ts): never goals. */
const PAYMENT_EVENT_NAMES = ['payment', 'trial'] as const;

const visitors: PanelColumn = { metric: 'visitors', label: 'Visitors', format: (v) => formatCount(v) };
const revenue = (currency: string): PanelColumn => ({
  metric: 'revenue_net',
  label: 'Revenue',
  format: (v) => formatMoney(v, currency),
});

export function sourceTabs(currency: string, withRevenue: boolean): PanelTab[] {
  const money = withRevenue ? [revenue(currency)] : [];
  const assistants: PanelTab = {
    key: 'assistants',
    label: 'AI assistants',
    dimension: 'visit:ai_source',
    columns: [visitors, ...money],
    filters: [['is', 'visit:channel', ['ai']]],
    name: assistantName,
    isAi: () => true,
  };
  return [
    {
      key: 'channels',
      label: 'Channels',
      dimension: 'visit:channel',
      columns: [visitors, ...money],
      name: channelName,
      isAi: (value) => value === 'ai',
      // The product's point: which assistants sent visitors shows on the first view.
      expand: { value: 'ai', tab: assistants },
    },
    assistants,
    {
      key: 'referrers',
      label: 'Referrers',
      dimension: 'visit:referrer',
      columns: [visitors],
      nullLabel: 'Direct / none',
    },
    {
      key: 'campaigns',
      label: 'Campaigns',
      dimension: 'visit:utm_campaign',
      columns: [visitors],
      nullLabel: '(no campaign)',
    },
  ];
}

export const PAGE_TABS: PanelTab[] = [
  {
    key: 'top',
    label: 'Top pages',
    dimension: 'event:page',
    columns: [visitors, { metric: 'pageviews', label: 'Views', format: (v) => formatCount(v) }],
  },
  { key: 'entry', label: 'Entry pages', dimension: 'visit:entry_page', columns: [visitors] },
  { key: 'exit', label: 'Exit pages', dimension: 'visit:exit_page', columns: [visitors] },
];

export const LOCATION_TABS: PanelTab[] = [
  { key: 'map', label: 'Map', dimension: 'visit:country', columns: [visitors], map: true },
  {
    key: 'countries',
    label: 'Countries',
    dimension: 'visit:country',
    columns: [visitors],
    name: countryName,
    nullLabel: 'Unknown',
  },
  { key: 'cities', label: 'Cities', dimension: 'visit:city', columns: [visitors], nullLabel: 'Unknown' },
];

export const DEVICE_TABS: PanelTab[] = [
  {
    key: 'devices',
    label: 'Devices',
    dimension: 'visit:device',
    columns: [visitors],
    name: capitalized,
    nullLabel: 'Unknown',
  },
  {
    key: 'browsers',
    label: 'Browsers',
    dimension: 'visit:browser',
    columns: [visitors],
    nullLabel: 'Unknown',
  },
  { key: 'os', label: 'OS', dimension: 'visit:os', columns: [visitors], nullLabel: 'Unknown' },
];

/**
 * Goals with the people who converted, conversions, their rate against all visitors, and value;
 * named as the goals registry names them (`names`: event name → emoji and display name).
 */
export function goalTabs(totalVisitors: number, currency: string, names: Map<string, string>): PanelTab[] {
  const rate = (row: StatsRow) => (totalVisitors > 0 ? ((row.metrics[0] ?? 0) / totalVisitors) * 100 : 0);
  return [
    {
      key: 'goals',
      label: 'Goals',
      dimension: 'event:goal',
      // The stats query's event:goal is every conversion event; payments and trials are
      // conversions but never goals (DESIGN.md §4), so the panel lists what the Goals page lists.
      filters: [['is_not', 'event:goal', [...PAYMENT_EVENT_NAMES]]],
      name: (event) => names.get(event) ?? event,
      columns: [
        { metric: 'visitors', label: 'People', format: (v) => formatCount(v) },
        { metric: 'conversions', label: 'Total', format: (v) => formatCount(v) },
        { metric: 'visitors', label: 'Rate', format: (_v, row) => formatPercent(rate(row)) },
        // Goals sent without a value have none.
        { metric: 'goal_value', label: 'Value', format: (v) => (v ? formatMoney(v, currency) : '—') },
      ],
    },
  ];
}
