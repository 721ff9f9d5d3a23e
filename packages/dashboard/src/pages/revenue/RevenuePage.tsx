/**
 * Revenue by source: totals net of refunds, the daily net, the sources under a model (or all four
 * side by side), and the conversions behind them.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useRevenue } from '../../api/revenue';
import { siteQuery } from '../../api/sites';
import type { AttributionModel } from '../../api/types';
import { ErrorState, Skeleton, SkeletonRows } from '../../components/States';
import { Tabs } from '../../components/Tabs';
import { type ChartPoint, TimeChart } from '../../components/TimeChart';
import { formatDay, formatMajor } from '../../lib/format';
import { dateWindow, MODELS, useViewState } from '../../lib/view-state';
import { Toolbar } from '../overview/Toolbar';
import { ConversionListing } from './ConversionListing';
import { ModelComparison } from './ModelComparison';
import { SourcesTable } from './SourcesTable';

type ModelTab = AttributionModel | 'compare';
const MODEL_TABS: { key: ModelTab; label: string }[] = [...MODELS, { key: 'compare', label: 'Side by side' }];
const DAY_SECONDS = 86_400;

export default function RevenuePage({ siteId }: { siteId: string }) {
  const site = useQuery(siteQuery(siteId));
  const [view, update] = useViewState();
  const window = dateWindow(view);
  const [sideBySide, setSideBySide] = useState(false);
  const model: AttributionModel = view.model ?? site.data?.attribution_model ?? 'last_touch';
  const tab: ModelTab = sideBySide ? 'compare' : model;
  const report = useRevenue(siteId, window, model);
  const points = useMemo(() => {
    const byDay = new Map((report.data?.days ?? []).map((d) => [d.date, d.net]));
    const points: ChartPoint[] = [];
    for (
      let t = Date.parse(`${window.from}T00:00:00Z`) / 1000;
      t <= Date.parse(`${window.to}T00:00:00Z`) / 1000;
      t += DAY_SECONDS
    ) {
      const day = new Date(t * 1000).toISOString().slice(0, 10);
      points.push({ time: t, label: formatDay(day), value: byDay.get(day) ?? 0 });
    }
    return points;
  }, [report.data, window.from, window.to]);
  if (site.isError) {
    return (
      <main>
        <ErrorState error={site.error} retry={() => site.refetch()} />
      </main>
    );
  }
  const currency = report.data?.currency ?? site.data?.currency ?? 'USD';
  const money = (amount: number) => formatMajor(amount, currency);
  const totals = report.data?.totals;
  return (
    <main>
      <div className="page-head">
        <div>
          <h1>Revenue</h1>
          <span className="muted small">
            Payments credited to the visits that led to them, net of refunds · UTC days
          </span>
        </div>
      </div>
      <Toolbar view={view} update={update} withFilters={false} withCompare={false} />
      <section className="card" aria-label="Totals">
        <div className="metrics">
          {[
            ['Net revenue', totals && money(totals.net)],
            ['Paid', totals && money(totals.gross)],
            ['Refunded', totals && money(totals.refunded)],
            ['Conversions', totals && String(Math.round(totals.conversions * 100) / 100)],
          ].map(([label, value]) => (
            <div className="metric" key={label}>
              <div className="label">{label}</div>
              <div className="value">{value ?? <Skeleton height={30} width="70%" />}</div>
            </div>
          ))}
        </div>
        {report.isError ? (
          <ErrorState error={report.error} retry={() => report.refetch()} />
        ) : report.data ? (
          <TimeChart
            points={points}
            metricLabel="Net revenue"
            format={money}
            compare={false}
            hourly={false}
          />
        ) : (
          <Skeleton height={260} />
        )}
        {report.data?.unconverted.length ? (
          <p className="notice small">
            Not in these figures, for want of an exchange rate:{' '}
            {report.data.unconverted.map((u) => formatMajor(u.net, u.currency)).join(', ')}.
          </p>
        ) : null}
      </section>
      <section className="card" aria-label="Revenue by source" style={{ marginTop: '1rem' }}>
        <div className="panel-head">
          <h2>By source</h2>
          <span className="spacer" />
          <Tabs
            label="Attribution model"
            options={MODEL_TABS}
            value={tab}
            onChange={(key) => {
              setSideBySide(key === 'compare');
              if (key !== 'compare') update({ model: key });
            }}
          />
        </div>
        {tab === 'compare' ? (
          <ModelComparison siteId={siteId} window={window} />
        ) : report.isPending ? (
          <SkeletonRows rows={5} />
        ) : report.data ? (
          <SourcesTable report={report.data} />
        ) : null}
      </section>
      <ConversionListing siteId={siteId} window={window} model={model} />
    </main>
  );
}
