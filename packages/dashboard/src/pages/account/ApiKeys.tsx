/** The account's API keys: who may use what, when last used; revoke; and the form for a new one. */
import { useQuery } from '@tanstack/react-query';
import { type ApiKey, apiKeysQuery, revokeApiKey } from '../../api/account-admin';
import { dashboardSitesQuery } from '../../api/sites';
import { RevocableList } from '../../components/RevocableList';
import { formatDateTime } from '../../lib/format';
import { NewApiKey } from './NewApiKey';

const isExpired = (key: ApiKey) => key.expires_at !== null && new Date(key.expires_at) < new Date();

export function ApiKeys() {
  const keys = useQuery(apiKeysQuery);
  const sites = useQuery(dashboardSitesQuery);
  const siteName = (snippetKey: string | null) => {
    if (!snippetKey) return null;
    const site = sites.data?.find((s) => s.snippet_key === snippetKey);
    return site ? (site.name ?? site.domain) : snippetKey;
  };
  return (
    <>
      <RevocableList
        titleId="keys-title"
        title="API keys"
        intro="For reading statistics and sending server-side events from your own code."
        list={keys}
        queryKey={apiKeysQuery.queryKey}
        empty={{
          title: 'No API keys yet',
          hint: 'Create one below to use the API from your servers or scripts.',
        }}
        revoke={revokeApiKey}
        questionOf={(key) => `Revoke ${key.name}? It stops working at once.`}
        stateOf={(key) => (isExpired(key) ? <span className="pill warn">Expired</span> : null)}
        detailsOf={(key) => {
          const site = siteName(key.site_id);
          return (
            <>
              <div className="small muted">
                {key.scopes.join(', ')} · {site ? `only ${site}` : 'every site'}
              </div>
              <div className="small muted">
                Created {formatDateTime(key.created_at)} ·{' '}
                {key.last_used_at ? `last used ${formatDateTime(key.last_used_at)}` : 'never used'}
                {key.expires_at && ` · expires ${formatDateTime(key.expires_at)}`}
              </div>
            </>
          );
        }}
      />
      <NewApiKey />
    </>
  );
}
