/**
 * The account and the signed-in person: API keys, bot tokens, members and invitations, their own
 * sessions, and security (second factor and password). Each section has its own address.
 */
import { useQuery } from '@tanstack/react-query';
import { meQuery } from '../../api/account';
import { SectionNav, useSection } from '../settings/SectionNav';
import { ApiKeys } from './ApiKeys';
import { BotTokens } from './BotTokens';
import { Members } from './Members';
import { MySessions } from './MySessions';
import { Security } from './Security';
import '../settings/settings.css';

const SECTIONS = [
  { path: '', label: 'API keys' },
  { path: '/bot-tokens', label: 'Bot tokens' },
  { path: '/members', label: 'Members' },
  { path: '/sessions', label: 'My sessions' },
  { path: '/security', label: 'Security' },
];

export default function AccountPage() {
  const me = useQuery(meQuery);
  const section = useSection(
    '/account',
    SECTIONS.map((s) => s.path),
  );
  return (
    <main className="settings">
      <div className="page-head">
        <div>
          <h1>Account</h1>
          {me.data && (
            <span className="muted small">
              {me.data.account.name} · signed in as {me.data.user.email} ({me.data.role})
            </span>
          )}
        </div>
      </div>
      <SectionNav base="/account" sections={SECTIONS} label="Account sections" />
      {section === '/bot-tokens' ? (
        <BotTokens />
      ) : section === '/members' ? (
        <Members />
      ) : section === '/sessions' ? (
        <MySessions />
      ) : section === '/security' ? (
        <Security />
      ) : (
        <ApiKeys />
      )}
    </main>
  );
}
