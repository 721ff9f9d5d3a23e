/** Mints a bot token for one site; the token and the site's snippet key are what the middleware needs. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { createBotToken } from '../../api/account-admin';
import { dashboardSitesQuery } from '../../api/sites';
import { Field } from '../../components/Form';
import { SecretOnceForm } from '../../components/SecretOnceForm';

export function NewBotToken() {
  const id = useId();
  const queryClient = useQueryClient();
  const sites = useQuery(dashboardSitesQuery);
  const live = (sites.data ?? []).filter((s) => !s.deleted_at);
  const [siteId, setSiteId] = useState('');
  const [name, setName] = useState('');
  const chosen = siteId || live[0]?.uuid || '';
  const create = useMutation({
    mutationFn: () => createBotToken({ site_id: chosen, ...(name.trim() ? { name: name.trim() } : {}) }),
    onSuccess: () => {
      setName('');
      queryClient.invalidateQueries({ queryKey: ['bot-tokens'] });
    },
  });
  return (
    <SecretOnceForm
      titleId="new-bot-token-title"
      title="Create a bot token"
      create={create}
      shown={(created) => ({
        heading: `Bot token created: ${created.name}`,
        secretTitle: 'The bot token',
        secret: created.plaintext_token,
        note: (
          <p className="small">
            Give the middleware this token and the site key{' '}
            <span className="mono">{created.snippet_key}</span>.
          </p>
        ),
      })}
    >
      {live.length === 0 ? (
        <p className="muted">Add a site first: a bot token belongs to one site.</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-site`}>Site</label>
            <select id={`${id}-site`} value={chosen} onChange={(e) => setSiteId(e.target.value)}>
              {live.map((s) => (
                <option key={s.uuid} value={s.uuid}>
                  {s.name ?? s.domain}
                </option>
              ))}
            </select>
          </div>
          <Field
            label="Name (optional)"
            name="bot-token-name"
            maxLength={100}
            placeholder="Edge middleware"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className="button primary" disabled={create.isPending}>
            Create the token
          </button>
        </>
      )}
    </SecretOnceForm>
  );
}
