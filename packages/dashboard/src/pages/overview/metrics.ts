/** The figures of the overview's tiles and chart: their stats metric, words and format. */
import { formatCount, formatDuration, formatMoney, formatPercent } from '../../lib/format';

export interface TileMetric {
  key: 'visitors' | 'visits' | 'pageviews' | 'bounce_rate' | 'visit_duration';
  label: string;
  format: (value: number) => string;
  lowerIsBetter?: boolean;
}

export const TILE_METRICS: TileMetric[] = [
  { key: 'visitors', label: 'Visitors', format: formatCount },
  { key: 'visits', label: 'Visits', format: formatCount },
  { key: 'pageviews', label: 'Pageviews', format: formatCount },
  { key: 'bounce_rate', label: 'Bounce rate', format: formatPercent, lowerIsBetter: true },
  { key: 'visit_duration', label: 'Visit duration', format: formatDuration },
];

export const moneyFormat = (currency: string) => (minor: number) => formatMoney(minor, currency);

/** Revenue is credited to channels and assistants only: other filters leave it out (DESIGN.md §7). */
export const revenueAllowed = (filterKeys: string[]) =>
  filterKeys.every((key) => key === 'channel' || key === 'ai_source');
