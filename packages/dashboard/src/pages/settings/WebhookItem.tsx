/**
 * One webhook endpoint with its actions: test ping, enable or disable, edit its events, rotate
 * its secret, its delivery log, delete. Each action's answer shows under the row.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  deleteWebhook,
  pingWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type Webhook,
} from '../../api/settings';
import { ConfirmAction } from '../../components/ConfirmAction';
import { FormError } from '../../components/Form';
import { SecretOnce } from '../../components/SecretOnce';
import { EventTypeChoices } from './EventTypeChoices';
import { PingResultView } from './PingResultView';
import { VerificationPill } from './VerificationPill';
import { WebhookDeliveries } from './WebhookDeliveries';

type Panel = 'none' | 'events' | 'deliveries';

export function WebhookItem({ siteId, webhook }: { siteId: string; webhook: Webhook }) {
  const queryClient = useQueryClient();
  const [panel, setPanel] = useState<Panel>('none');
  const [types, setTypes] = useState(webhook.event_types);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks', siteId] });
  const update = useMutation({
    mutationFn: (body: { event_types?: string[]; enabled?: boolean }) =>
      updateWebhook(siteId, webhook.id, body),
    onSuccess: () => {
      setPanel('none');
      return refresh();
    },
  });
  const ping = useMutation({
    mutationFn: () => pingWebhook(siteId, webhook.id),
    onSuccess: () => {
      refresh();
      queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', siteId, webhook.id] });
    },
  });
  const rotate = useMutation({ mutationFn: () => rotateWebhookSecret(siteId, webhook.id) });
  const remove = useMutation({ mutationFn: () => deleteWebhook(siteId, webhook.id), onSuccess: refresh });
  const toggle = (next: Panel) => setPanel(panel === next ? 'none' : next);
  return (
    <li aria-label={webhook.url}>
      <div className="grow">
        <div className="mono">{webhook.url}</div>
        <div className="row small" style={{ marginTop: '0.3rem' }}>
          <VerificationPill status={webhook.verification_status} />
          {!webhook.enabled && <span className="pill">Disabled</span>}
          <span className="muted">{webhook.event_types.join(', ')}</span>
        </div>
      </div>
      <div className="actions">
        <button type="button" className="button" disabled={ping.isPending} onClick={() => ping.mutate()}>
          {ping.isPending ? 'Pinging…' : 'Send a test'}
        </button>
        <button
          type="button"
          className="button"
          disabled={update.isPending}
          onClick={() => update.mutate({ enabled: !webhook.enabled })}
        >
          {webhook.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className="button"
          aria-expanded={panel === 'events'}
          onClick={() => {
            setTypes(webhook.event_types);
            toggle('events');
          }}
        >
          Events
        </button>
        <button
          type="button"
          className="button"
          aria-expanded={panel === 'deliveries'}
          onClick={() => toggle('deliveries')}
        >
          Deliveries
        </button>
        <ConfirmAction
          label="Rotate the secret"
          question="The old secret stops working at once. Rotate?"
          confirmLabel="Rotate"
          danger={false}
          pending={rotate.isPending}
          error={rotate.error}
          onConfirm={() => rotate.mutate()}
        />
        <ConfirmAction
          label="Delete"
          question="Delete this webhook and its delivery log?"
          confirmLabel="Delete"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <FormError error={update.error ?? ping.error} />
      {ping.data && <PingResultView result={ping.data} onClose={() => ping.reset()} />}
      {rotate.data && (
        <SecretOnce title="New signing secret" secret={rotate.data.secret} onDone={() => rotate.reset()} />
      )}
      {panel === 'events' && (
        <form
          className="webhook-panel"
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate({ event_types: types });
          }}
        >
          <EventTypeChoices value={types} onChange={setTypes} legend="Events sent to this endpoint" />
          <div className="row">
            <button
              type="submit"
              className="button primary"
              disabled={types.length === 0 || update.isPending}
            >
              Save the events
            </button>
            <button type="button" className="button" onClick={() => setPanel('none')}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {panel === 'deliveries' && <WebhookDeliveries siteId={siteId} webhookId={webhook.id} />}
    </li>
  );
}
