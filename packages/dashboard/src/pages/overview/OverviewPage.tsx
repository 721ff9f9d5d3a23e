/** The overview of one of the signed-in person's sites. */
import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { goalsQuery } from '../../api/goals';
import { siteQuery } from '../../api/sites';
import { ErrorState } from '../../components/States';
import { SiteOverview } from './SiteOverview';

export default function OverviewPage({ siteId }: { siteId: string }) {
  // The site and its goals are asked for while rendering, before the reports: the browser sends
  // six requests at a time, and these two answer in milliseconds where the reports take longer.
  usePrefetchQuery(siteQuery(siteId));
  usePrefetchQuery(goalsQuery(siteId));
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
