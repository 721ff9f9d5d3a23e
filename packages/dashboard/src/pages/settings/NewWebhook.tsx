/** Adds a webhook endpoint; the server pings it once, and its signing secret is shown this once. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createWebhook } from '../../api/settings';
import { Field, FormError } from '../../components/Form';
import { SecretOnce } from '../../components/SecretOnce';
import { EventTypeChoices } from './EventTypeChoices';
import { VerificationPill } from './VerificationPill';

export function NewWebhook({ siteId }: { siteId: string }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>(['ai_session.classified']);
  const create = useMutation({
    mutationFn: () => createWebhook(siteId, { url: url.trim(), event_types: types }),
    onSuccess: () => {
      setUrl('');
      setTypes(['ai_session.classified']);
      queryClient.invalidateQueries({ queryKey: ['webhooks', siteId] });
    },
  });
  if (create.data) {
    return (
      <section className="card" aria-labelledby="new-webhook-title">
        <h2 id="new-webhook-title">Webhook added</h2>
        <p>
          <span className="mono">{create.data.url}</span>{' '}
          <VerificationPill status={create.data.verification_status} />
        </p>
        <p className="small muted">
          {create.data.verification_status === 'verified'
            ? 'The test ping was answered.'
            : 'The test ping was not answered with a success; the webhook was added anyway. Send another test once the endpoint is ready.'}
        </p>
        <SecretOnce title="Signing secret" secret={create.data.secret} onDone={() => create.reset()}>
          <p className="small muted">Your endpoint checks each request's signature with it.</p>
        </SecretOnce>
      </section>
    );
  }
  return (
    <form
      className="card"
      aria-labelledby="new-webhook-title"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <h2 id="new-webhook-title">Add a webhook</h2>
      <FormError error={create.error} />
      <Field
        label="Endpoint URL"
        name="url"
        type="url"
        required
        placeholder="https://example.com/hooks/touchtrail"
        hint="HTTPS only. A signed test ping is sent to it when it is added."
        value={url}
        onChange={(e) => setUrl(e.target.value)}
      />
      <EventTypeChoices value={types} onChange={setTypes} />
      <button type="submit" className="button primary" disabled={create.isPending || types.length === 0}>
        {create.isPending ? 'Adding and pinging…' : 'Add the webhook'}
      </button>
    </form>
  );
}
