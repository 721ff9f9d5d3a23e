/** The delivery log of one endpoint, newest first, filtered by status, with older pages on demand. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type DeliveryStatus, fetchDeliveries } from '../../api/settings';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../lib/format';

const STATUSES: { key: DeliveryStatus | ''; label: string }[] = [
  { key: '', label: 'Every status' },
  { key: 'succeeded', label: 'Succeeded' },
  { key: 'failed', label: 'Failed' },
  { key: 'retrying', label: 'Retrying' },
  { key: 'pending', label: 'Pending' },
];

const PAGE = 20;

export function WebhookDeliveries({ siteId, webhookId }: { siteId: string; webhookId: string }) {
  const id = useId();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const log = useInfiniteQuery({
    queryKey: ['webhook-deliveries', siteId, webhookId, status],
    queryFn: ({ pageParam }) =>
      fetchDeliveries(siteId, webhookId, { status: status || undefined, before: pageParam, limit: PAGE }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
  const deliveries = log.data?.pages.flatMap((p) => p.deliveries) ?? [];
  return (
    <section className="webhook-panel" aria-label="Deliveries">
      <div className="field" style={{ maxWidth: '16rem' }}>
        <label htmlFor={`${id}-status`}>Show deliveries</label>
        <select
          id={`${id}-status`}
          value={status}
          onChange={(e) => setStatus(e.target.value as DeliveryStatus | '')}
        >
          {STATUSES.map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      {log.isPending ? (
        <SkeletonRows rows={3} />
      ) : log.isError ? (
        <ErrorState error={log.error} retry={() => log.refetch()} />
      ) : deliveries.length === 0 ? (
        <EmptyState title="No deliveries">
          <p className="muted small">
            {status ? 'None with this status in the last 30 days.' : 'Send a test to see one here.'}
          </p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="plain">
            <caption className="visually-hidden">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id}>
                  <td>{formatDateTime(d.created_at)}</td>
                  <td className="mono">{d.event_type}</td>
                  <td>
                    {d.status}
                    {d.attempt_count > 1 && <span className="muted small"> ({d.attempt_count} tries)</span>}
                  </td>
                  <td className="small">
                    {d.response_status ? `HTTP ${d.response_status}` : ''}
                    {d.last_error && <div className="muted">{d.last_error}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.hasNextPage && (
        <button
          type="button"
          className="button"
          style={{ marginTop: '0.6rem' }}
          disabled={log.isFetchingNextPage}
          onClick={() => log.fetchNextPage()}
        >
          Older deliveries
        </button>
      )}
    </section>
  );
}
