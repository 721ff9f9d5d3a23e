/**
 * The account's sites, each with its visits of the last 30 days as a sparkline and, when the ingest
 * refused hits of it as bots in the last hour, how many.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { sitesWithDeletedQuery } from '../../api/settings';
import { dashboardSitesQuery, useStats } from '../../api/sites';
import type { DashboardSite } from '../../api/types';
import { BotRefusals } from '../../components/BotRefusals';
import { Sparkline } from '../../components/Sparkline';
import { EmptyState, ErrorState, Skeleton, SkeletonRows } from '../../components/States';
import { formatCount, formatDateTime } from '../../lib/format';
import { RestoreSiteButton } from '../settings/RestoreSiteButton';

const DAY_MS = 86_400_000;

/** The last 30 UTC days, oldest first, as `YYYY-MM-DD`. */
function last30Days(): string[] {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  return Array.from({ length: 30 }, (_, i) => new Date(today - (29 - i) * DAY_MS).toISOString().slice(0, 10));
}

function SiteCard({ site }: { site: DashboardSite }) {
  const stats = useStats({
    site_id: site.uuid,
    metrics: ['visits'],
    dimensions: ['time:day'],
    date_range: '30d',
    timezone: 'UTC',
  });
  const byDay = new Map(
    (stats.data?.results ?? []).map((row) => [row.dimensions[0]?.slice(0, 10), row.metrics[0] ?? 0]),
  );
  const series = last30Days().map((day) => byDay.get(day) ?? 0);
  const total = series.reduce((sum, v) => sum + v, 0);
  const name = site.name ?? site.domain;
  return (
    <li>
      <Link href={`/sites/${site.uuid}`} className="card site-card">
        <div className="domain">{name}</div>
        {site.name && <div className="muted small">{site.domain}</div>}
        {stats.isPending ? (
          <Skeleton height={58} />
        ) : stats.isError ? (
          <p className="muted small">Figures could not be loaded.</p>
        ) : (
          <>
            <div className="figure">
              {formatCount(total)}{' '}
              <span className="muted small">{total === 1 ? 'visit' : 'visits'} in 30 days</span>
            </div>
            <Sparkline
              values={series}
              label={`Visits per day over the last 30 days on ${name}: ${total} in all`}
            />
          </>
        )}
        <BotRefusals siteId={site.uuid} className="status warn small" />
      </Link>
    </li>
  );
}

/** Sites inside their deletion window: the day their data is erased, and a way back. */
function ScheduledSites({ sites }: { sites: DashboardSite[] }) {
  const withDates = useQuery(sitesWithDeletedQuery);
  const effectiveAt = (site: DashboardSite) =>
    withDates.data?.find((s) => s.snippet_key === site.snippet_key)?.deletion_effective_at;
  return (
    <section className="card" style={{ marginTop: '1.5rem' }} aria-label="Scheduled for deletion">
      <h2>Scheduled for deletion</h2>
      <ul className="plain-list">
        {sites.map((site) => {
          const at = effectiveAt(site);
          return (
            <li key={site.uuid}>
              <span>
                <strong>{site.name ?? site.domain}</strong>{' '}
                <span className="muted small">({site.domain})</span>
                {at && <span className="small"> · erased on {formatDateTime(at)}</span>}
              </span>
              <RestoreSiteButton uuid={site.uuid} domain={site.domain} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export default function SitesPage() {
  const sites = useQuery(dashboardSitesQuery);
  const live = (sites.data ?? []).filter((s) => !s.deleted_at);
  const scheduled = (sites.data ?? []).filter((s) => s.deleted_at);
  return (
    <main>
      <div className="page-head">
        <h1>Sites</h1>
        <span className="spacer" />
        <Link href="/sites/new" className="button primary">
          Add a site
        </Link>
      </div>
      {sites.isPending ? (
        <SkeletonRows rows={3} />
      ) : sites.isError ? (
        <ErrorState error={sites.error} retry={() => sites.refetch()} />
      ) : live.length === 0 ? (
        <div className="card">
          <EmptyState title="No sites yet">
            <p className="muted">
              Add your site to get the snippet to install. Its first visit shows up here within seconds.
            </p>
            <div className="actions">
              <Link href="/sites/new" className="button primary">
                Add a site
              </Link>
            </div>
          </EmptyState>
        </div>
      ) : (
        <ul className="site-list">
          {live.map((site) => (
            <SiteCard key={site.uuid} site={site} />
          ))}
        </ul>
      )}
      {scheduled.length > 0 && <ScheduledSites sites={scheduled} />}
    </main>
  );
}
