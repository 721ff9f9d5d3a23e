/**
 * Connects a payment processor with its webhook signing secret; the answer is the receiving URL
 * the processor must send to, shown prominently until dismissed.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import {
  type ConnectRequest,
  connectErrorWords,
  connectProcessor,
  PROCESSORS,
  type ProcessorConnection,
  type ProcessorName,
  processorLabel,
} from '../../api/integrations';
import { COMMON_CURRENCIES } from '../../api/sites';
import { CopyButton } from '../../components/CopyButton';
import { Field, FormError } from '../../components/Form';
import { UnreachableUrl } from './UnreachableUrl';

export function NewProcessorConnection({ siteId }: { siteId: string }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const [provider, setProvider] = useState<ProcessorName>('stripe');
  const [secret, setSecret] = useState('');
  const [label, setLabel] = useState('');
  const [currency, setCurrency] = useState('');
  const connect = useMutation({
    mutationFn: (body: ConnectRequest) => connectProcessor(siteId, body),
    onSuccess: () => {
      setSecret('');
      setLabel('');
      setCurrency('');
      queryClient.invalidateQueries({ queryKey: ['integrations', siteId] });
    },
  });
  const facts = PROCESSORS.find((p) => p.name === provider) ?? PROCESSORS[0];
  if (connect.data) return <Connected connection={connect.data} onDone={() => connect.reset()} />;
  return (
    <form
      className="card"
      aria-labelledby="new-processor-title"
      onSubmit={(event) => {
        event.preventDefault();
        connect.mutate({
          provider,
          signing_secret: secret.trim(),
          ...(label.trim() ? { name: label.trim() } : {}),
          ...(currency.trim() ? { default_currency: currency.trim().toUpperCase() } : {}),
        });
      }}
    >
      <h2 id="new-processor-title">Connect a processor</h2>
      <FormError error={connectErrorWords(connect.error, provider)} />
      <div className="field">
        <label htmlFor={selectId}>Processor</label>
        <select
          id={selectId}
          name="provider"
          value={provider}
          onChange={(e) => {
            setProvider(e.target.value as ProcessorName);
            connect.reset();
          }}
        >
          {PROCESSORS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      {facts && (
        <div className="notice processor-hint small">
          <p>
            <strong>Signing secret:</strong> {facts.secretWhere}
          </p>
          <p>
            <strong>Events to send:</strong>{' '}
            {facts.events.map((event, i) => (
              <span key={event}>
                {i > 0 && ', '}
                <code>{event}</code>
              </span>
            ))}
          </p>
          {facts.order && <p>{facts.order}</p>}
        </div>
      )}
      <Field
        label="Signing secret"
        name="signing_secret"
        type="password"
        autoComplete="off"
        required
        maxLength={512}
        hint="Stored encrypted and never shown again."
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
      />
      <Field
        label="Label (optional)"
        name="name"
        maxLength={60}
        placeholder={`For example, ${facts?.label ?? ''} live`}
        hint="To tell connections apart, up to 60 characters."
        value={label}
        onChange={(e) => setLabel(e.target.value)}
      />
      <Field
        label="Default currency (optional)"
        name="default_currency"
        list="processor-currency-codes"
        maxLength={3}
        autoComplete="off"
        hint="The processor account’s currency. It becomes the site’s currency unless you set one by hand; without it, the first payment’s currency does."
        value={currency}
        onChange={(e) => setCurrency(e.target.value)}
      />
      <datalist id="processor-currency-codes">
        {COMMON_CURRENCIES.map((code) => (
          <option key={code} value={code} />
        ))}
      </datalist>
      <button type="submit" className="button primary" disabled={connect.isPending || secret.trim() === ''}>
        {connect.isPending ? 'Connecting…' : `Connect ${facts?.label ?? ''}`}
      </button>
    </form>
  );
}

/** The receiving URL of a new connection, brought into view: the one thing left to do with it. */
function Connected({ connection, onDone }: { connection: ProcessorConnection; onDone: () => void }) {
  const box = useRef<HTMLElement>(null);
  useEffect(() => box.current?.focus(), []);
  const label = processorLabel(connection.provider);
  return (
    <section className="card" aria-labelledby="processor-connected-title" tabIndex={-1} ref={box}>
      <h2 id="processor-connected-title">{label} connected</h2>
      <div className="notice receive-url" role="status">
        <p>
          <strong>{label} must send its webhooks to this URL.</strong> Paste it as the webhook endpoint’s URL
          in {label}.
        </p>
        <pre className="snippet mono">{connection.receive_url}</pre>
        <UnreachableUrl url={connection.receive_url} processor={label} />
        <div className="row">
          <CopyButton text={connection.receive_url} label="Copy the URL" />
          <button type="button" className="button" onClick={onDone}>
            Done
          </button>
        </div>
      </div>
    </section>
  );
}
