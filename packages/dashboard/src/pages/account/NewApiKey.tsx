/** Creates an API key with chosen scopes, optionally for one site and until a date; shown once. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { createApiKey, SCOPES, type Scope } from '../../api/account-admin';
import { dashboardSitesQuery } from '../../api/sites';
import { Field, FormError } from '../../components/Form';
import { SecretOnce } from '../settings/SecretOnce';

export function NewApiKey() {
  const id = useId();
  const queryClient = useQueryClient();
  const sites = useQuery(dashboardSitesQuery);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['stats:read']);
  const [siteId, setSiteId] = useState('');
  const [expires, setExpires] = useState('');
  const create = useMutation({
    mutationFn: () =>
      createApiKey({
        name: name.trim(),
        scopes,
        site_id: siteId || null,
        // The end of the chosen day, in the reader's time zone.
        expires_at: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
      }),
    onSuccess: () => {
      setName('');
      queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  if (create.data) {
    return (
      <section className="card" aria-labelledby="new-key-title">
        <h2 id="new-key-title">Key created: {create.data.name}</h2>
        <SecretOnce title="The API key" secret={create.data.api_key} onDone={() => create.reset()}>
          <p className="small muted">
            Send it as <span className="mono">Authorization: Bearer …</span> with each request.
          </p>
        </SecretOnce>
      </section>
    );
  }
  return (
    <form
      className="card"
      aria-labelledby="new-key-title"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <h2 id="new-key-title">Create an API key</h2>
      <FormError error={create.error} />
      <Field
        label="Name"
        name="key-name"
        required
        maxLength={100}
        placeholder="Backend payments"
        hint="To recognise it in this list."
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <fieldset>
        <legend>What it may do</legend>
        {SCOPES.map((scope) => (
          <label className="choice" key={scope.key}>
            <input
              type="checkbox"
              checked={scopes.includes(scope.key)}
              onChange={(e) =>
                setScopes(e.target.checked ? [...scopes, scope.key] : scopes.filter((s) => s !== scope.key))
              }
            />
            <span>
              <span className="mono">{scope.key}</span>
              <span className="small muted">{scope.label}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-site`}>Sites it reaches</label>
        <select id={`${id}-site`} value={siteId} onChange={(e) => setSiteId(e.target.value)}>
          <option value="">Every site of the account</option>
          {(sites.data ?? [])
            .filter((s) => !s.deleted_at)
            .map((s) => (
              <option key={s.uuid} value={s.uuid}>
                Only {s.name ?? s.domain}
              </option>
            ))}
        </select>
      </div>
      <Field
        label="Expires (optional)"
        name="expires"
        type="date"
        min={new Date().toISOString().slice(0, 10)}
        hint="Leave empty for a key that works until revoked."
        value={expires}
        onChange={(e) => setExpires(e.target.value)}
      />
      <button type="submit" className="button primary" disabled={create.isPending || scopes.length === 0}>
        Create the key
      </button>
    </form>
  );
}
