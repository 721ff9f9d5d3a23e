/**
 * A site's traffic: tiles, the chart, and the panels of sources, pages, places, devices and goals.
 * A shared view (`shared`) shows traffic only: no install card, no revenue, no goals.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { goalLabel, goalsQuery } from '../../api/goals';
import { useStats } from '../../api/sites';
import { Skeleton } from '../../components/States';
import { useViewState } from '../../lib/view-state';
import { Snippet, VerificationStatus } from '../sites/Install';
import { revenueAllowed, type TileMetric } from './metrics';
import { DEVICE_TABS, goalTabs, LOCATION_TABS, PAGE_TABS, sourceTabs } from './panels';
import { RealtimeVisitors } from './Realtime';
import { ReportPanel } from './ReportPanel';
import { Toolbar } from './Toolbar';
import { TopMetrics, totalsQuery } from './TopMetrics';
import { TrafficChart } from './TrafficChart';

export interface OverviewSite {
  name: string | null;
  domain: string;
  currency: string;
  snippet_key: string;
  cookie_apex_domain: string | null;
  verified_at: string | null;
}

/** `site` may still be loading: the reports do not wait for it, only the heading and the install card. */
export function SiteOverview({
  siteId,
  site,
  shared = false,
}: {
  siteId: string;
  site: OverviewSite | undefined;
  shared?: boolean;
}) {
  const [view, update] = useViewState();
  const [chartMetric, setChartMetric] = useState<TileMetric['key']>('visitors');
  const withRevenue = !shared && revenueAllowed(view.filters.map((f) => f.key));
  const totals = useStats(totalsQuery(siteId, view));
  const panelProps = { siteId, view, update };
  // Visitors are the first of the tiles' metrics.
  const totalVisitors = totals.data?.results[0]?.metrics[0] ?? 0;
  const currency = site?.currency ?? totals.data?.meta.currency ?? 'USD';
  const goals = useQuery({ ...goalsQuery(siteId), enabled: !shared });
  const goalNames = new Map(
    (goals.data ?? []).map((goal) => [goal.name, [goal.emoji, goalLabel(goal)].filter(Boolean).join(' ')]),
  );
  return (
    <main>
      <div className="page-head">
        <div>
          <h1>{site ? (site.name ?? site.domain) : <Skeleton height={28} width={200} />}</h1>
          <span className="muted small">{site?.domain ?? ''} · times in UTC</span>
        </div>
        <span className="spacer" />
        <RealtimeVisitors siteId={siteId} />
      </div>
      {!shared && site && !site.verified_at && (
        <section className="card" style={{ marginBottom: '1rem' }} aria-label="Install">
          <h2>Install the snippet to start counting</h2>
          <Snippet site={site} />
          <VerificationStatus siteId={siteId} />
        </section>
      )}
      <Toolbar view={view} update={update} />
      <section className="card" aria-label="Totals and chart">
        <TopMetrics
          siteId={siteId}
          view={view}
          selected={chartMetric}
          onSelect={setChartMetric}
          withRevenue={withRevenue}
        />
        <TrafficChart siteId={siteId} view={view} metric={chartMetric} shared={shared} />
      </section>
      <div className="grid-2">
        <ReportPanel title="Sources" tabs={sourceTabs(currency, withRevenue)} {...panelProps} />
        <ReportPanel title="Pages" tabs={PAGE_TABS} {...panelProps} />
        <ReportPanel title="Locations" tabs={LOCATION_TABS} {...panelProps} />
        <ReportPanel title="Devices" tabs={DEVICE_TABS} {...panelProps} />
      </div>
      {!shared && (
        <div style={{ marginTop: '1rem' }}>
          <ReportPanel title="Goals" tabs={goalTabs(totalVisitors, currency, goalNames)} {...panelProps} />
        </div>
      )}
    </main>
  );
}
