/** A site waiting for its erasure: when it happens, and the way back. */
import { useQuery } from '@tanstack/react-query';
import { sitesWithDeletedQuery } from '../../api/settings';
import type { DashboardSite } from '../../api/types';
import { formatDateTime } from '../../lib/format';
import { RestoreSiteButton } from './RestoreSiteButton';

export function ScheduledForDeletion({ site, effectiveAt }: { site: DashboardSite; effectiveAt?: string }) {
  const sites = useQuery({ ...sitesWithDeletedQuery, enabled: !effectiveAt });
  const when =
    effectiveAt ?? sites.data?.find((s) => s.snippet_key === site.snippet_key)?.deletion_effective_at;
  return (
    <section className="card danger-zone" aria-labelledby="scheduled-title">
      <h2 id="scheduled-title">Scheduled for deletion</h2>
      <p role="status">
        {site.domain} stopped collecting data.{' '}
        {when ? (
          <>
            Its data will be erased on <strong>{formatDateTime(when)}</strong>.
          </>
        ) : (
          'Its data will be erased 30 days after the deletion was asked for.'
        )}{' '}
        Until then you can restore it with everything it had.
      </p>
      <RestoreSiteButton uuid={site.uuid} domain={site.domain} />
    </section>
  );
}
