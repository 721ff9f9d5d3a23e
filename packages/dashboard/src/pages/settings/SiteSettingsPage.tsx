/**
 * A site's settings in sections with their own addresses: general (name, currency, attribution,
 * cookie domain), webhooks, payment processors, shared links, imports, privacy requests, and the danger
 * zone. A site scheduled for deletion answers 404 to its own read; the page then offers the
 * restore instead.
 */
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/http';
import { dashboardSitesQuery, siteQuery } from '../../api/sites';
import { ErrorState, SkeletonRows } from '../../components/States';
import { SharedLinksSettings } from '../share/SharedLinksSettings';
import { DangerZone } from './DangerZone';
import { GeneralSettings } from './GeneralSettings';
import { Imports } from './Imports';
import { PrivacyRequests } from './PrivacyRequests';
import { ProcessorConnections } from './ProcessorConnections';
import { ScheduledForDeletion } from './ScheduledForDeletion';
import { SectionNav, useSection } from './SectionNav';
import { Webhooks } from './Webhooks';
import './settings.css';

const SECTIONS = [
  { path: '', label: 'General' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/processors', label: 'Payment processors' },
  { path: '/shared-links', label: 'Shared links' },
  { path: '/imports', label: 'Imports' },
  { path: '/privacy', label: 'Privacy requests' },
  { path: '/danger', label: 'Danger zone' },
];

export default function SiteSettingsPage({ siteId }: { siteId: string }) {
  const base = `/sites/${siteId}/settings`;
  const section = useSection(
    base,
    SECTIONS.map((s) => s.path),
  );
  const site = useQuery(siteQuery(siteId));
  const sites = useQuery(dashboardSitesQuery);
  const listed = sites.data?.find((s) => s.uuid === siteId);
  if (listed?.deleted_at) {
    return (
      <main className="settings">
        <div className="page-head">
          <h1>Settings of {listed.name ?? listed.domain}</h1>
        </div>
        <ScheduledForDeletion site={listed} />
      </main>
    );
  }
  if (site.isPending || (site.isError && sites.isPending)) {
    return (
      <main className="settings">
        <SkeletonRows rows={6} />
      </main>
    );
  }
  if (site.isError) {
    const gone = site.error instanceof ApiError && site.error.status === 404;
    return (
      <main className="settings">
        <ErrorState
          error={gone ? new Error('This site does not exist, or it is not on your account.') : site.error}
          retry={() => site.refetch()}
        />
      </main>
    );
  }
  return (
    <main className="settings">
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <span className="muted small">{site.data.name ?? site.data.domain}</span>
        </div>
      </div>
      <SectionNav base={base} sections={SECTIONS} label="Settings sections" />
      {section === '/webhooks' ? (
        <Webhooks siteId={siteId} />
      ) : section === '/imports' ? (
        <Imports siteId={siteId} />
      ) : section === '/processors' ? (
        <ProcessorConnections siteId={siteId} />
      ) : section === '/shared-links' ? (
        <SharedLinksSettings siteId={siteId} />
      ) : section === '/privacy' ? (
        <PrivacyRequests siteId={siteId} />
      ) : section === '/danger' ? (
        <DangerZone siteId={siteId} site={site.data} />
      ) : (
        <GeneralSettings siteId={siteId} site={site.data} />
      )}
    </main>
  );
}
