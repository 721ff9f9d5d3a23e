/**
 * The tiles over the chart: visitors, visits, pageviews, bounce rate and duration, then the AI
 * share of visits and of revenue, each with its change against the previous period. Clicking a
 * traffic tile shows it in the chart.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useStats } from '../../api/sites';
import type { StatsAnswer, StatsQuery } from '../../api/types';
import { Change } from '../../components/Change';
import { Skeleton } from '../../components/States';
import { formatPercent } from '../../lib/format';
import { queryScope, type ViewState } from '../../lib/view-state';
import { moneyFormat, TILE_METRICS, type TileMetric } from './metrics';

/** AI's share (percent) of a metric across channel rows, now and in the earlier period. */
function aiShare(answer: StatsAnswer | undefined, index: number) {
  const rows = answer?.results ?? [];
  const sum = (pick: (row: (typeof rows)[number]) => number) =>
    rows.reduce((total, row) => total + pick(row), 0);
  const now = sum((r) => r.metrics[index] ?? 0);
  const before = sum((r) => r.comparison?.metrics[index] ?? 0);
  const ai = rows.find((r) => r.dimensions[0] === 'ai');
  const share = now > 0 ? ((ai?.metrics[index] ?? 0) / now) * 100 : 0;
  const earlier = before > 0 ? ((ai?.comparison?.metrics[index] ?? 0) / before) * 100 : null;
  return { share, change: earlier === null ? null : share - earlier, total: now };
}

/** The tiles' figures with their earlier period; the goals panel reads its visitors too (one request). */
export const totalsQuery = (siteId: string, view: ViewState): StatsQuery => ({
  site_id: siteId,
  metrics: TILE_METRICS.map((m) => m.key),
  ...queryScope(view),
  include: { comparison: 'previous_period' },
});

export function TopMetrics({
  siteId,
  view,
  selected,
  onSelect,
  withRevenue,
}: {
  siteId: string;
  view: ViewState;
  selected: TileMetric['key'];
  onSelect: (key: TileMetric['key']) => void;
  /** Revenue tiles need money figures: not with other filters than channel, nor in a shared view. */
  withRevenue: boolean;
}) {
  const scope = queryScope(view);
  const totals = useStats(totalsQuery(siteId, view));
  const byChannel = useStats({
    site_id: siteId,
    metrics: withRevenue ? ['visits', 'revenue_net'] : ['visits'],
    dimensions: ['visit:channel'],
    ...scope,
    include: { comparison: 'previous_period' },
  });
  const row = totals.data?.results[0];
  const visitsIndex = TILE_METRICS.findIndex((m) => m.key === 'visits');
  // Nothing in the range yet: figures read "—", and the view asks again until the first visit.
  const empty = Boolean(totals.data) && (row?.metrics[visitsIndex] ?? 0) === 0;
  useRefreshWhile(empty);
  const visitsShare = aiShare(byChannel.data, 0);
  const revenueShare = aiShare(byChannel.data, 1);
  const currency = byChannel.data?.meta.currency ?? 'USD';
  return (
    <div className="metrics">
      {TILE_METRICS.map((metric, i) => (
        <button
          type="button"
          key={metric.key}
          className="metric"
          aria-pressed={selected === metric.key}
          onClick={() => onSelect(metric.key)}
          style={{
            textAlign: 'left',
            background: selected === metric.key ? 'var(--surface-2)' : 'none',
            border: 0,
            borderRight: '1px solid var(--border)',
            cursor: 'pointer',
          }}
        >
          <div className="label">{metric.label}</div>
          {totals.isPending ? (
            <Skeleton height={30} width="70%" />
          ) : (
            <>
              <div className="value">{row && !empty ? metric.format(row.metrics[i] ?? 0) : '—'}</div>
              {!empty && <Change change={row?.comparison?.change[i]} lowerIsBetter={metric.lowerIsBetter} />}
            </>
          )}
        </button>
      ))}
      <div className="metric ai">
        <div className="label">AI share of visits</div>
        {byChannel.isPending ? (
          <Skeleton height={30} width="70%" />
        ) : (
          <>
            <div className="value">{empty ? '—' : formatPercent(visitsShare.share)}</div>
            {!empty && <Change change={visitsShare.change} points />}
          </>
        )}
      </div>
      {withRevenue && (
        <div className="metric ai">
          <div className="label">AI share of revenue</div>
          {byChannel.isPending ? (
            <Skeleton height={30} width="70%" />
          ) : (
            <>
              <div className="value">
                {revenueShare.total === 0 ? '—' : formatPercent(revenueShare.share)}
              </div>
              <span className="muted small">of {moneyFormat(currency)(revenueShare.total)}</span>{' '}
              {revenueShare.total !== 0 && <Change change={revenueShare.change} points />}
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** Asks every report of the view again every 5 seconds while `waiting`, so a first visit shows. */
function useRefreshWhile(waiting: boolean) {
  const queries = useQueryClient();
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => queries.invalidateQueries({ queryKey: ['stats'] }), 5000);
    return () => clearInterval(timer);
  }, [waiting, queries]);
}
