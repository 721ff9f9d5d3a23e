/** A site's traffic: tiles, the chart, and the panels of sources, pages, places, devices and goals. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { siteQuery, useStats } from '../../api/sites';
import { ErrorState, SkeletonRows } from '../../components/States';
import { queryScope, useViewState } from '../../lib/view-state';
import { Snippet, VerificationStatus } from '../sites/Install';
import { revenueAllowed, type TileMetric } from './metrics';
import { DEVICE_TABS, goalTabs, LOCATION_TABS, PAGE_TABS, sourceTabs } from './panels';
import { RealtimeVisitors } from './Realtime';
import { ReportPanel } from './ReportPanel';
import { Toolbar } from './Toolbar';
import { TopMetrics } from './TopMetrics';
import { TrafficChart } from './TrafficChart';

export default function OverviewPage({ siteId }: { siteId: string }) {
  const site = useQuery(siteQuery(siteId));
  const [view, update] = useViewState();
  const [chartMetric, setChartMetric] = useState<TileMetric['key']>('visitors');
  const visitors = useStats({ site_id: siteId, metrics: ['visitors'], ...queryScope(view) });
  if (site.isPending) {
    return (
      <main>
        <SkeletonRows rows={8} />
      </main>
    );
  }
  if (site.isError) {
    return (
      <main>
        <ErrorState error={site.error} retry={() => site.refetch()} />
      </main>
    );
  }
  const { currency } = site.data;
  const withRevenue = revenueAllowed(view.filters.map((f) => f.key));
  const panelProps = { siteId, view, update };
  const totalVisitors = visitors.data?.results[0]?.metrics[0] ?? 0;
  return (
    <main>
      <div className="page-head">
        <div>
          <h1>{site.data.name ?? site.data.domain}</h1>
          <span className="muted small">{site.data.domain} · times in UTC</span>
        </div>
        <span className="spacer" />
        <RealtimeVisitors siteId={siteId} />
      </div>
      {!site.data.verified_at && (
        <section className="card" style={{ marginBottom: '1rem' }} aria-label="Install">
          <h2>Install the snippet to start counting</h2>
          <Snippet site={site.data} />
          <VerificationStatus siteId={siteId} />
        </section>
      )}
      <Toolbar view={view} update={update} />
      <section className="card" aria-label="Totals and chart">
        <TopMetrics siteId={siteId} view={view} selected={chartMetric} onSelect={setChartMetric} />
        <TrafficChart siteId={siteId} view={view} metric={chartMetric} />
      </section>
      <div className="grid-2">
        <ReportPanel title="Sources" tabs={sourceTabs(currency, withRevenue)} {...panelProps} />
        <ReportPanel title="Pages" tabs={PAGE_TABS} {...panelProps} />
        <ReportPanel title="Locations" tabs={LOCATION_TABS} {...panelProps} />
        <ReportPanel title="Devices" tabs={DEVICE_TABS} {...panelProps} />
      </div>
      <div style={{ marginTop: '1rem' }}>
        <ReportPanel title="Goals" tabs={goalTabs(totalVisitors, currency)} {...panelProps} />
      </div>
    </main>
  );
}
