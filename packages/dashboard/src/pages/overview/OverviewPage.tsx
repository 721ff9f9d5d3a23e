/** The overview of one of the signed-in person's sites. */
import { useQuery } from '@tanstack/react-query';
import { siteQuery } from '../../api/sites';
import { ErrorState } from '../../components/States';
import { SiteOverview } from './SiteOverview';

export default function OverviewPage({ siteId }: { siteId: string }) {
  // The reports start at once, beside the site's own read, not after it.
  const site = useQuery(siteQuery(siteId));
  if (site.isError) {
    return (
      <main>
        <ErrorState error={site.error} retry={() => site.refetch()} />
      </main>
    );
  }
  return <SiteOverview siteId={siteId} site={site.data} />;
}
