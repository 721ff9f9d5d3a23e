/** Creates an API key with chosen scopes, optionally for one site and until a date; shown once. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyScope } from '@touchtrail/client';
import { useId, useState } from 'react';
import { createApiKey, SCOPES } from '../../api/account-admin';
import { dashboardSitesQuery } from '../../api/sites';
import { Field } from '../../components/Form';
import { SecretOnceForm } from '../../components/SecretOnceForm';

export function NewApiKey() {
  const id = useId();
  const queryClient = useQueryClient();
  const sites = useQuery(dashboardSitesQuery);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['stats:read']);
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
  return (
    <SecretOnceForm
      titleId="new-key-title"
      title="Create an API key"
      create={create}
      shown={(created) => ({
        heading: `Key created: ${created.name}`,
        secretTitle: 'The API key',
        secret: created.api_key,
        note: (
          <p className="small muted">
            Send it as <span className="mono">Authorization: Bearer …</span> with each request.
          </p>
        ),
      })}
    >
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
    </SecretOnceForm>
  );
}
