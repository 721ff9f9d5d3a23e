/**
 * Dashboard sign-in with the built-in identity provider. A session ends after 7 idle days or
 * 30 days in all. Unknown emails cost the same scrypt work as wrong passwords, so response
 * time does not tell whether an email has an account. A person with a second factor gets a
 * pending sign-in (5 minutes) after the password, and a session only after the code.
 */
import type { Kysely } from 'kysely';
import type { SessionPrincipal } from '../access/principal.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { DB } from '../db/types.js';
import { AppError, notFound } from '../http/errors.js';
import { type Clock, DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { newId, randomToken } from '../lib/ids.js';
import { decoyPasswordHash, hashPassword, sha256Hex, verifyPassword } from '../lib/secrets.js';
import type { SecondFactorProof, SecondFactorService } from '../second-factor/second-factor.service.js';
import * as store from './sessions.store.js';

export const SESSION_IDLE_MS = 7 * DAY_MS;
export const SESSION_MAX_MS = 30 * DAY_MS;
export const PENDING_SIGN_IN_MS = 5 * MINUTE_MS;
/** Enough to tell browsers apart in the session list; the rest is not kept. */
const USER_AGENT_MAX_LENGTH = 200;

/** The user agent as stored: printable characters only, cut short; null when there is none. */
export function shortUserAgent(userAgent: string | undefined): string | null {
  const printable = (userAgent ?? '').replace(/[^\x20-\x7e]/g, '').trim();
  return printable ? printable.slice(0, USER_AGENT_MAX_LENGTH) : null;
}

export interface SignedIn {
  token: string;
  user_id: string;
  account_id: string;
  role: SessionPrincipal['role'];
}

export type SignInResult =
  | ({ kind: 'session' } & SignedIn)
  /** The password was right; the second factor is still to come, with this token. */
  | { kind: 'second_factor'; pendingToken: string };

export function createSessionsService({
  db,
  clock,
  accounts,
  secondFactor,
}: {
  db: Kysely<DB>;
  clock: Clock;
  accounts: Pick<AccountsService, 'findLogin' | 'findUser' | 'setPasswordHash'>;
  secondFactor: Pick<SecondFactorService, 'isEnrolled' | 'verify'>;
}) {
  /** Stores a new session for a member and answers its cookie value. Every sign-in path ends here. */
  async function start(member: {
    userId: string;
    accountId: string;
    userAgent?: string | null;
  }): Promise<string> {
    const token = randomToken(32);
    const now = clock.now();
    await store.insertSession(db, {
      id: newId(),
      token_hash: sha256Hex(token),
      user_id: member.userId,
      account_id: member.accountId,
      user_agent: shortUserAgent(member.userAgent ?? undefined),
      created_at: now,
      expires_at: new Date(now.getTime() + SESSION_MAX_MS),
    });
    return token;
  }

  const idleBefore = (now: Date) => new Date(now.getTime() - SESSION_IDLE_MS);
  const signInExpired = () => new AppError(401, 'sign_in_expired', 'The sign-in expired; sign in again');

  async function findPending(pendingToken: string) {
    if (pendingToken.length < 20 || pendingToken.length > 100) return undefined;
    const pending = await store.findPendingSignIn(db, sha256Hex(pendingToken));
    return pending && pending.expires_at > clock.now() ? pending : undefined;
  }

  /** Password sign-in: a session, or a pending sign-in when the person has a second factor. */
  async function signIn(email: string, password: string, userAgent?: string): Promise<SignInResult> {
    const login = await accounts.findLogin(email);
    const isValid = await verifyPassword(password, login?.password_hash ?? (await decoyPasswordHash()));
    if (!login || !isValid) throw new AppError(401, 'invalid_credentials', 'Wrong email or password');
    const member = { userId: login.user_id, accountId: login.account_id, userAgent };
    if (await secondFactor.isEnrolled(login.user_id)) {
      const pendingToken = randomToken(32);
      await store.insertPendingSignIn(db, {
        token_hash: sha256Hex(pendingToken),
        user_id: member.userId,
        account_id: member.accountId,
        user_agent: shortUserAgent(userAgent),
        expires_at: new Date(clock.now().getTime() + PENDING_SIGN_IN_MS),
      });
      return { kind: 'second_factor', pendingToken };
    }
    const token = await start(member);
    return { kind: 'session', token, user_id: login.user_id, account_id: login.account_id, role: login.role };
  }

  return {
    start,
    signIn,

    /** `signIn` for people without a second factor (test fixtures); refuses the others. */
    async login(email: string, password: string): Promise<SignedIn> {
      const result = await signIn(email, password);
      if (result.kind !== 'session') {
        throw new AppError(401, 'invalid_credentials', 'This person signs in with a second factor');
      }
      const { kind: _kind, ...signedIn } = result;
      return signedIn;
    },

    /** The second step of a pending sign-in: a TOTP code or a recovery code gives the session. */
    async completeSignIn(pendingToken: string, proof: SecondFactorProof): Promise<SignedIn> {
      const pending = await findPending(pendingToken);
      if (!pending) throw signInExpired();
      await secondFactor.verify(pending.user_id, proof);
      if (!(await store.claimPendingSignIn(db, sha256Hex(pendingToken)))) throw signInExpired();
      const token = await start({
        userId: pending.user_id,
        accountId: pending.account_id,
        userAgent: pending.user_agent,
      });
      return { token, user_id: pending.user_id, account_id: pending.account_id, role: pending.role };
    },

    /** Whose a pending sign-in is, for the per-account attempt budget; undefined when unknown. */
    async pendingSignInUser(pendingToken: string): Promise<string | undefined> {
      return (await findPending(pendingToken))?.user_id;
    },

    /** Ends every session of a person, e.g. after their password changed or was reset. */
    async endAllForUser(userId: string): Promise<void> {
      await store.deleteUserSessions(db, userId);
      await store.deleteUserPendingSignIns(db, userId);
    },

    /** The principal behind a session cookie, or null when unknown, idle too long or expired. */
    async authenticate(token: string): Promise<SessionPrincipal | null> {
      if (token.length < 20 || token.length > 100) return null;
      const tokenHash = sha256Hex(token);
      const row = await store.findSession(db, tokenHash);
      const now = clock.now();
      if (!row || row.expires_at <= now || row.last_seen_at <= idleBefore(now)) return null;
      if (now.getTime() - row.last_seen_at.getTime() > MINUTE_MS)
        await store.touchSession(db, tokenHash, now);
      return { kind: 'session', accountId: row.account_id, userId: row.user_id, role: row.role };
    },

    /** A person's live sessions; `current` marks the one behind `currentToken`. */
    async listForUser(userId: string, currentToken: string) {
      const now = clock.now();
      const currentHash = sha256Hex(currentToken);
      const rows = await store.listUserSessions(db, userId, idleBefore(now), now);
      return rows.map((row) => ({
        id: row.id,
        current: row.token_hash === currentHash,
        created_at: row.created_at.toISOString(),
        last_used_at: row.last_seen_at.toISOString(),
        user_agent: row.user_agent,
      }));
    },

    /** Ends one of a person's sessions; 404 for an unknown id or another person's. */
    async endOne(userId: string, sessionId: string): Promise<void> {
      if (!(await store.deleteUserSession(db, userId, sessionId))) throw notFound('Session');
    },

    async endOthers(userId: string, currentToken: string): Promise<void> {
      await store.deleteOtherUserSessions(db, userId, sha256Hex(currentToken));
    },

    /** Sets a new password after checking the current one; ends every other session of the person. */
    async changePassword(userId: string, currentToken: string, input: { current: string; next: string }) {
      const stored = (await accounts.findUser(userId))?.password_hash;
      const isValid = await verifyPassword(input.current, stored ?? (await decoyPasswordHash()));
      if (!stored || !isValid) {
        throw new AppError(403, 'invalid_credentials', 'The current password is wrong', {
          field: 'current_password',
        });
      }
      const passwordHash = await hashPassword(input.next);
      await db.transaction().execute(async (trx) => {
        await accounts.setPasswordHash(trx, userId, passwordHash);
        await store.deleteOtherUserSessions(trx, userId, sha256Hex(currentToken));
        await store.deleteUserPendingSignIns(trx, userId);
      });
    },

    async logout(token: string): Promise<void> {
      await store.deleteSession(db, sha256Hex(token));
    },

    async purgeExpired(): Promise<void> {
      const now = clock.now();
      await store.deleteExpiredSessions(db, idleBefore(now), now);
      await store.deleteExpiredPendingSignIns(db, now);
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
