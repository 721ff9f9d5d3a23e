/** Funnels: the saved list at `/funnels`, a new one at `/funnels/new`, a saved one at `/funnels/<id>`. */
import { useQuery } from '@tanstack/react-query';
import { useRoute } from 'wouter';
import { funnelQuery } from '../../api/funnels';
import { ErrorState, SkeletonRows } from '../../components/States';
import { FunnelEditor } from './FunnelEditor';
import { FunnelList } from './FunnelList';
import './funnels.css';

function SavedFunnel({ siteId, id }: { siteId: string; id: string }) {
  const funnel = useQuery(funnelQuery(siteId, id));
  if (funnel.isPending) {
    return (
      <main>
        <SkeletonRows rows={6} />
      </main>
    );
  }
  if (funnel.isError) {
    return (
      <main>
        <ErrorState error={funnel.error} retry={() => funnel.refetch()} />
      </main>
    );
  }
  return <FunnelEditor key={funnel.data.id} siteId={siteId} funnel={funnel.data} />;
}

export default function FunnelsPage({ siteId }: { siteId: string }) {
  const [isNew] = useRoute('/sites/:siteId/funnels/new');
  const [isOne, params] = useRoute<{ id: string }>('/sites/:siteId/funnels/:id');
  if (isNew) return <FunnelEditor key="new" siteId={siteId} />;
  if (isOne && params) return <SavedFunnel siteId={siteId} id={params.id} />;
  return <FunnelList siteId={siteId} />;
}
