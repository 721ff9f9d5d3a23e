/**
 * A site's traffic: tiles, the chart, and the panels of sources, pages, places, devices and goals.
 * A shared view (`shared`) shows traffic only: no install card, no revenue, no goals.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { goalLabel, goalsQuery } from '../../api/goals';
import { useStats } from '../../api/sites';
import { queryScope, useViewState } from '../../lib/view-state';
import { Snippet, VerificationStatus } from '../sites/Install';
import { revenueAllowed, type TileMetric } from './metrics';
import { DEVICE_TABS, goalTabs, LOCATION_TABS, PAGE_TABS, sourceTabs } from './panels';
import { RealtimeVisitors } from './Realtime';
import { ReportPanel } from './ReportPanel';
import { Toolbar } from './Toolbar';
import { TopMetrics } from './TopMetrics';
import { TrafficChart } from './TrafficChart';

export interface OverviewSite {
  name: string | null;
  domain: string;
  currency: string;
  snippet_key: string;
  cookie_apex_domain: string | null;
  verified_at: string | null;
}

export function SiteOverview({
  siteId,
  site,
  shared = false,
}: {
  siteId: string;
  site: OverviewSite;
  shared?: boolean;
}) {
  const [view, update] = useViewState();
  const [chartMetric, setChartMetric] = useState<TileMetric['key']>('visitors');
  const withRevenue = !shared && revenueAllowed(view.filters.map((f) => f.key));
  const visitors = useStats(
    { site_id: siteId, metrics: ['visitors'], ...queryScope(view) },
    { enabled: !shared },
  );
  const panelProps = { siteId, view, update };
  const totalVisitors = visitors.data?.results[0]?.metrics[0] ?? 0;
  const goals = useQuery({ ...goalsQuery(siteId), enabled: !shared });
  const goalNames = new Map(
    (goals.data ?? []).map((goal) => [goal.name, [goal.emoji, goalLabel(goal)].filter(Boolean).join(' ')]),
  );
  return (
    <main>
      <div className="page-head">
        <div>
          <h1>{site.name ?? site.domain}</h1>
          <span className="muted small">{site.domain} · times in UTC</span>
        </div>
        <span className="spacer" />
        <RealtimeVisitors siteId={siteId} />
      </div>
      {!shared && !site.verified_at && (
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
        <TrafficChart siteId={siteId} view={view} metric={chartMetric} />
      </section>
      <div className="grid-2">
        <ReportPanel title="Sources" tabs={sourceTabs(site.currency, withRevenue)} {...panelProps} />
        <ReportPanel title="Pages" tabs={PAGE_TABS} {...panelProps} />
        <ReportPanel title="Locations" tabs={LOCATION_TABS} {...panelProps} />
        <ReportPanel title="Devices" tabs={DEVICE_TABS} {...panelProps} />
      </div>
      {!shared && (
        <div style={{ marginTop: '1rem' }}>
          <ReportPanel
            title="Goals"
            tabs={goalTabs(totalVisitors, site.currency, goalNames)}
            {...panelProps}
          />
        </div>
      )}
    </main>
  );
}
