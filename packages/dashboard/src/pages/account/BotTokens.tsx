/**
 * Bot tokens: the credentials of the crawler middleware that reports AI crawler hits. A token can
 * do nothing else. Admins only; the API says so to anyone else.
 */
import { useQuery } from '@tanstack/react-query';
import { botTokensQuery, revokeBotToken } from '../../api/account-admin';
import { dashboardSitesQuery } from '../../api/sites';
import { RevocableList } from '../../components/RevocableList';
import { formatDateTime } from '../../lib/format';
import { NewBotToken } from './NewBotToken';

export function BotTokens() {
  const tokens = useQuery(botTokensQuery);
  const sites = useQuery(dashboardSitesQuery);
  const siteName = (snippetKey: string) => {
    const site = sites.data?.find((s) => s.snippet_key === snippetKey);
    return site ? (site.name ?? site.domain) : snippetKey;
  };
  return (
    <>
      <RevocableList
        titleId="bot-tokens-title"
        title="Bot tokens"
        intro="The crawler middleware on your servers reports AI crawler visits with one of these. To replace a token, create the new one, deploy it, then revoke the old one."
        list={tokens}
        queryKey={botTokensQuery.queryKey}
        empty={{
          title: 'No bot tokens yet',
          hint: 'Create one below for the site whose crawler visits you want to see.',
        }}
        revoke={revokeBotToken}
        questionOf={(token) => `Revoke ${token.name}? Reports with it stop within a minute.`}
        detailsOf={(token) => (
          <div className="small muted">
            {siteName(token.snippet_key)} · created {formatDateTime(token.created_at)} ·{' '}
            {token.last_used_at ? `last used ${formatDateTime(token.last_used_at)}` : 'never used'}
          </div>
        )}
      />
      {!tokens.isError && <NewBotToken />}
    </>
  );
}
