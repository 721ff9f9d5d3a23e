/** How each stats metric reads (DESIGN.md §7): rates in percent, seconds as durations, money in minor units. */
import { formatDuration, formatMinorMoney, formatNumber, formatPercent } from './format.js';

const RATES = new Set(['bounce_rate', 'conversion_rate']);
const MONEY = new Set(['revenue_net', 'revenue_refunded', 'goal_value']);

export function formatMetric(name: string, value: number | null | undefined, currency: string): string {
  if (RATES.has(name)) return formatPercent(value);
  if (name === 'visit_duration') return formatDuration(value);
  if (MONEY.has(name)) return formatMinorMoney(value, currency);
  return formatNumber(value);
}

/** `visit:channel` → `Channel`, `revenue_net` → `Revenue net`. */
export function headerOf(name: string): string {
  const bare = name
    .replace(/^(visit|event|time):/, '')
    .replace(/^props:/, '')
    .replace(/_/g, ' ');
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}
