/** The account's API keys: who may use what, when last used; revoke; and the form for a new one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiKey, apiKeysQuery, revokeApiKey } from '../../api/account-admin';
import { dashboardSitesQuery } from '../../api/sites';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { ConfirmAction } from '../settings/ConfirmAction';
import { LoadError } from '../settings/LoadError';
import { NewApiKey } from './NewApiKey';

function KeyItem({ apiKey, siteName }: { apiKey: ApiKey; siteName: string | null }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeApiKey(apiKey.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
  const expired = apiKey.expires_at !== null && new Date(apiKey.expires_at) < new Date();
  return (
    <li aria-label={apiKey.name}>
      <div className="grow">
        <div>
          <strong>{apiKey.name}</strong> <span className="mono muted">{apiKey.prefix}…</span>{' '}
          {apiKey.revoked_at ? (
            <span className="pill bad">Revoked</span>
          ) : expired ? (
            <span className="pill warn">Expired</span>
          ) : null}
        </div>
        <div className="small muted">
          {apiKey.scopes.join(', ')} · {siteName ? `only ${siteName}` : 'every site'}
        </div>
        <div className="small muted">
          Created {formatDateTime(apiKey.created_at)} ·{' '}
          {apiKey.last_used_at ? `last used ${formatDateTime(apiKey.last_used_at)}` : 'never used'}
          {apiKey.expires_at && ` · expires ${formatDateTime(apiKey.expires_at)}`}
        </div>
      </div>
      {!apiKey.revoked_at && (
        <div className="actions">
          <ConfirmAction
            label="Revoke"
            question={`Revoke ${apiKey.name}? It stops working at once.`}
            confirmLabel="Revoke"
            pending={revoke.isPending}
            error={revoke.error}
            onConfirm={() => revoke.mutate()}
          />
        </div>
      )}
    </li>
  );
}

export function ApiKeys() {
  const keys = useQuery(apiKeysQuery);
  const sites = useQuery(dashboardSitesQuery);
  const siteName = (snippetKey: string | null) => {
    if (!snippetKey) return null;
    const site = sites.data?.find((s) => s.snippet_key === snippetKey);
    return site ? (site.name ?? site.domain) : snippetKey;
  };
  // Revoked keys sink to the bottom.
  const sorted = [...(keys.data ?? [])].sort((a, b) => Number(!!a.revoked_at) - Number(!!b.revoked_at));
  return (
    <>
      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">API keys</h2>
        <p className="small muted">
          For reading statistics and sending server-side events from your own code.
        </p>
        {keys.isPending ? (
          <SkeletonRows rows={3} />
        ) : keys.isError ? (
          <LoadError error={keys.error} retry={() => keys.refetch()} />
        ) : sorted.length === 0 ? (
          <EmptyState title="No API keys yet">
            <p className="muted">Create one below to use the API from your servers or scripts.</p>
          </EmptyState>
        ) : (
          <ul className="item-list" aria-label="API keys">
            {sorted.map((key) => (
              <KeyItem key={key.id} apiKey={key} siteName={siteName(key.site_id)} />
            ))}
          </ul>
        )}
      </section>
      <NewApiKey />
    </>
  );
}
