/** The site's saved funnels, oldest first, each opening its report. */
import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from 'wouter';
import { type Funnel, funnelsQuery } from '../../api/funnels';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/States';
import { formatCountOf, formatDateTime } from '../../lib/format';

const stepWords = (funnel: Funnel) =>
  funnel.steps.map((step) => (step.type === 'page' ? step.value : step.name)).join(' → ');

export function FunnelList({ siteId }: { siteId: string }) {
  const funnels = useQuery(funnelsQuery(siteId));
  const search = useSearch();
  const query = search ? `?${search}` : '';
  const base = `/sites/${siteId}/funnels`;
  return (
    <main className="funnels-page">
      <div className="page-head">
        <div>
          <h1>Funnels</h1>
          <span className="muted small">Follow people through the steps that lead to a conversion</span>
        </div>
        <span className="spacer" />
        <Link href={`${base}/new${query}`} className="button primary">
          New funnel
        </Link>
      </div>
      <section className="card" aria-label="Saved funnels">
        {funnels.isPending ? (
          <SkeletonRows rows={3} />
        ) : funnels.isError ? (
          <ErrorState error={funnels.error} retry={() => funnels.refetch()} />
        ) : funnels.data.length === 0 ? (
          <EmptyState title="No funnels yet">
            <p className="muted">
              A funnel counts the people who reach each of 2 to 8 steps in order (pages they view or events
              they send) and shows where the others drop off.
            </p>
            <div className="actions">
              <Link href={`${base}/new${query}`} className="button primary">
                Build your first funnel
              </Link>
            </div>
          </EmptyState>
        ) : (
          <ul className="funnel-list">
            {funnels.data.map((funnel) => (
              <li key={funnel.id}>
                <Link href={`${base}/${funnel.id}${query}`}>{funnel.name}</Link>
                <div className="muted small funnel-list-steps">
                  {formatCountOf(funnel.steps.length, 'step')}: {stepWords(funnel)}
                </div>
                <div className="muted small">Changed {formatDateTime(funnel.updated_at)}</div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
