/** A site's webhook endpoints: the list with each one's actions, and the form to add one. */
import { useQuery } from '@tanstack/react-query';
import { webhooksQuery } from '../../api/settings';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/States';
import { NewWebhook } from './NewWebhook';
import { WebhookItem } from './WebhookItem';

export function Webhooks({ siteId }: { siteId: string }) {
  const webhooks = useQuery(webhooksQuery(siteId));
  return (
    <>
      <section className="card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <p className="small muted">
          Touchtrail posts signed events to these endpoints as they happen, up to 10 per site.
        </p>
        {webhooks.isPending ? (
          <SkeletonRows rows={3} />
        ) : webhooks.isError ? (
          <ErrorState error={webhooks.error} retry={() => webhooks.refetch()} />
        ) : webhooks.data.length === 0 ? (
          <EmptyState title="No webhooks yet">
            <p className="muted">Add an endpoint below to be told when AI visits and conversions happen.</p>
          </EmptyState>
        ) : (
          <ul className="item-list" aria-label="Webhook endpoints">
            {webhooks.data.map((webhook) => (
              <WebhookItem key={webhook.id} siteId={siteId} webhook={webhook} />
            ))}
          </ul>
        )}
      </section>
      <NewWebhook siteId={siteId} />
    </>
  );
}
