/**
 * A site's payment-processor connections: each one's receiving URL, what arrived and the last
 * refusal, a disconnect; then the form to connect one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  connectionsQuery,
  disconnectProcessor,
  type ProcessorConnection,
  processorLabel,
} from '../../api/integrations';
import { ConfirmAction } from '../../components/ConfirmAction';
import { CopyButton } from '../../components/CopyButton';
import { LoadError } from '../../components/LoadError';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDateTime, formatExact } from '../../lib/format';
import { NewProcessorConnection } from './NewProcessorConnection';
import { UnreachableUrl } from './UnreachableUrl';

export function ProcessorConnections({ siteId }: { siteId: string }) {
  const connections = useQuery(connectionsQuery(siteId));
  return (
    <>
      <section className="card" aria-labelledby="processors-title">
        <h2 id="processors-title">Payment processors</h2>
        <p className="small muted">
          A connected processor sends its signed webhooks here, and Touchtrail records the payments, trials,
          renewals and refunds they describe, credited to the visits they came from.
        </p>
        <p className="notice small">
          Do not also post a connected processor’s payments to <code>/v1/server/payments</code>: they would
          count twice. Remove that code from your backend when you connect.
        </p>
        {connections.isPending ? (
          <SkeletonRows rows={2} />
        ) : connections.isError ? (
          <LoadError error={connections.error} retry={() => connections.refetch()} />
        ) : connections.data.length === 0 ? (
          <EmptyState title="No processor connected">
            <p className="muted">
              Connect Stripe, Paddle, Lemon Squeezy or Polar below with its webhook signing secret, then paste
              the receiving URL you get into the processor.
            </p>
          </EmptyState>
        ) : (
          <ul className="item-list" aria-label="Processor connections">
            {connections.data.map((connection) => (
              <ConnectionItem key={connection.id} siteId={siteId} connection={connection} />
            ))}
          </ul>
        )}
      </section>
      <NewProcessorConnection siteId={siteId} />
    </>
  );
}

function ConnectionItem({ siteId, connection }: { siteId: string; connection: ProcessorConnection }) {
  const queryClient = useQueryClient();
  const disconnect = useMutation({
    mutationFn: () => disconnectProcessor(siteId, connection.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['integrations', siteId] }),
  });
  const label = processorLabel(connection.provider);
  return (
    <li aria-label={connection.name ? `${label}, ${connection.name}` : label}>
      <div className="grow">
        <div>
          <strong>{label}</strong>
          {connection.name && <span className="muted"> · {connection.name}</span>}
        </div>
        <div className="row small receive-row">
          <span className="mono">{connection.receive_url}</span>
          <CopyButton text={connection.receive_url} label="Copy the URL" />
        </div>
        <UnreachableUrl url={connection.receive_url} processor={label} />
        <div className="small muted">
          {connection.last_event_at
            ? `Last event ${formatDateTime(connection.last_event_at)} · ${formatExact(connection.events_received)} ${connection.events_received === 1 ? 'event' : 'events'} received`
            : 'No event received yet'}
        </div>
        {connection.last_error && (
          <p className="notice processor-error small">
            <strong>Last refused delivery</strong>
            {connection.last_error_at && ` (${formatDateTime(connection.last_error_at)})`}:{' '}
            {connection.last_error}
          </p>
        )}
      </div>
      <div className="actions">
        <ConfirmAction
          label="Disconnect"
          question="Its URL stops working at once; payments already recorded stay. Disconnect?"
          confirmLabel="Disconnect"
          pending={disconnect.isPending}
          error={disconnect.error}
          onConfirm={() => disconnect.mutate()}
        />
      </div>
    </li>
  );
}
