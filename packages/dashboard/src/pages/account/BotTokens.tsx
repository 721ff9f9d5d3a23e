/**
 * Bot tokens: the credentials of the crawler middleware that reports AI crawler hits. A token can
 * do nothing else. Admins only; the API says so to anyone else.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type BotToken, botTokensQuery, revokeBotToken } from '../../api/account-admin';
import { dashboardSitesQuery } from '../../api/sites';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { ConfirmAction } from '../settings/ConfirmAction';
import { LoadError } from '../settings/LoadError';
import { NewBotToken } from './NewBotToken';

function TokenItem({ token, siteName }: { token: BotToken; siteName: string }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeBotToken(token.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['bot-tokens'] }),
  });
  return (
    <li aria-label={token.name}>
      <div className="grow">
        <div>
          <strong>{token.name}</strong> <span className="mono muted">{token.prefix}…</span>{' '}
          {token.revoked_at && <span className="pill bad">Revoked</span>}
        </div>
        <div className="small muted">
          {siteName} · created {formatDateTime(token.created_at)} ·{' '}
          {token.last_used_at ? `last used ${formatDateTime(token.last_used_at)}` : 'never used'}
        </div>
      </div>
      {!token.revoked_at && (
        <div className="actions">
          <ConfirmAction
            label="Revoke"
            question={`Revoke ${token.name}? Reports with it stop within a minute.`}
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

export function BotTokens() {
  const tokens = useQuery(botTokensQuery);
  const sites = useQuery(dashboardSitesQuery);
  const siteName = (snippetKey: string) => {
    const site = sites.data?.find((s) => s.snippet_key === snippetKey);
    return site ? (site.name ?? site.domain) : snippetKey;
  };
  const sorted = [...(tokens.data ?? [])].sort((a, b) => Number(!!a.revoked_at) - Number(!!b.revoked_at));
  return (
    <>
      <section className="card" aria-labelledby="bot-tokens-title">
        <h2 id="bot-tokens-title">Bot tokens</h2>
        <p className="small muted">
          The crawler middleware on your servers reports AI crawler visits with one of these. To replace a
          token, create the new one, deploy it, then revoke the old one.
        </p>
        {tokens.isPending ? (
          <SkeletonRows rows={3} />
        ) : tokens.isError ? (
          <LoadError error={tokens.error} retry={() => tokens.refetch()} />
        ) : sorted.length === 0 ? (
          <EmptyState title="No bot tokens yet">
            <p className="muted">Create one below for the site whose crawler visits you want to see.</p>
          </EmptyState>
        ) : (
          <ul className="item-list" aria-label="Bot tokens">
            {sorted.map((token) => (
              <TokenItem key={token.id} token={token} siteName={siteName(token.snippet_key)} />
            ))}
          </ul>
        )}
      </section>
      {!tokens.isError && <NewBotToken />}
    </>
  );
}
