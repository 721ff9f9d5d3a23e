/**
 * Dashboard sign-in with the built-in identity provider. A session ends after 7 idle days or
 * 30 days in all. Unknown emails cost the same scrypt work as wrong passwords, so response
 * time does not tell whether an email has an account.
 */
import type { Kysely } from 'kysely';
import type { SessionPrincipal } from '../access/principal.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { DB } from '../db/types.js';
import { AppError } from '../http/errors.js';
import { type Clock, DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { randomToken } from '../lib/ids.js';
import { decoyPasswordHash, sha256Hex, verifyPassword } from '../lib/secrets.js';
import * as store from './sessions.store.js';

export const SESSION_IDLE_MS = 7 * DAY_MS;
export const SESSION_MAX_MS = 30 * DAY_MS;

export function createSessionsService({
  db,
  clock,
  accounts,
}: {
  db: Kysely<DB>;
  clock: Clock;
  accounts: Pick<AccountsService, 'findLogin'>;
}) {
  /** Stores a new session for a member and answers its cookie value. Every sign-in path ends here. */
  async function start(member: { userId: string; accountId: string }): Promise<string> {
    const token = randomToken(32);
    const now = clock.now();
    await store.insertSession(db, {
      token_hash: sha256Hex(token),
      user_id: member.userId,
      account_id: member.accountId,
      created_at: now,
      expires_at: new Date(now.getTime() + SESSION_MAX_MS),
    });
    return token;
  }

  return {
    start,

    async login(email: string, password: string) {
      const login = await accounts.findLogin(email);
      const isValid = await verifyPassword(password, login?.password_hash ?? (await decoyPasswordHash()));
      if (!login || !isValid) throw new AppError(401, 'invalid_credentials', 'Wrong email or password');
      const token = await start({ userId: login.user_id, accountId: login.account_id });
      return { token, user_id: login.user_id, account_id: login.account_id, role: login.role };
    },

    /** Ends every session of a person, e.g. after their password changed or was reset. */
    async endAllForUser(userId: string): Promise<void> {
      await store.deleteUserSessions(db, userId);
    },

    /** The principal behind a session cookie, or null when unknown, idle too long or expired. */
    async authenticate(token: string): Promise<SessionPrincipal | null> {
      if (token.length < 20 || token.length > 100) return null;
      const tokenHash = sha256Hex(token);
      const row = await store.findSession(db, tokenHash);
      const now = clock.now();
      if (!row || row.expires_at <= now || row.last_seen_at.getTime() + SESSION_IDLE_MS <= now.getTime()) {
        return null;
      }
      if (now.getTime() - row.last_seen_at.getTime() > MINUTE_MS)
        await store.touchSession(db, tokenHash, now);
      return { kind: 'session', accountId: row.account_id, userId: row.user_id, role: row.role };
    },

    async logout(token: string): Promise<void> {
      await store.deleteSession(db, sha256Hex(token));
    },

    async purgeExpired(): Promise<void> {
      const now = clock.now();
      await store.deleteExpiredSessions(db, new Date(now.getTime() - SESSION_IDLE_MS), now);
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
