/**
 * Password reset (DESIGN §8): a one-time link valid 1 hour. Anyone may ask for one by
 * email; the answer and its timing are the same whether the email has an account or not (one SQL
 * statement either way, the email sent after the answer). Without SMTP nothing is sent and an
 * admin hands out the link instead. Using a link sets the password and ends every session.
 */
import type { Kysely } from 'kysely';
import { requireAdmin } from '../access/admin.js';
import type { Principal } from '../access/principal.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';
import { type Clock, HOUR_MS } from '../lib/clock.js';
import { hashPassword } from '../lib/secrets.js';
import { passwordResetEmail } from '../mail/emails.js';
import type { Mailer } from '../mail/mailer.js';
import { hashOneTimeToken, invalidLink, newOneTimeToken, oneTimeLink } from '../mail/one-time-link.js';
import type { SessionsService } from '../sign-in/sessions.service.js';
import * as store from './password-reset.store.js';

export const RESET_VALID_MS = HOUR_MS;

export function createPasswordResetService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
  sessions: Pick<SessionsService, 'endAllForUser'>;
  accounts: Pick<AccountsService, 'getMember' | 'setPasswordHash'>;
}) {
  const { db, clock, config, mailer, sessions, accounts } = deps;
  /** Emails on their way after the answer went out; `settled()` waits for them. */
  const deliveries = new Set<Promise<void>>();

  function newReset() {
    const { token, tokenHash } = newOneTimeToken();
    const now = clock.now();
    return { token, tokenHash, now, expiresAt: new Date(now.getTime() + RESET_VALID_MS) };
  }

  /** Sends once the current request has answered, so the send's time never shows in the answer. */
  function deliverLater(to: string, link: string, onFailure: (error: unknown) => void) {
    const delivery = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => mailer.send(passwordResetEmail({ to, link })))
      .catch(onFailure)
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  }

  return {
    /**
     * Stores a link for the email's account, if any, and emails it after the answer (with SMTP).
     * The same work runs for an unknown email; `onMailFailure` hears of a send that failed.
     */
    async request(email: string, onMailFailure: (error: unknown) => void): Promise<void> {
      const reset = newReset();
      await store.deleteExpiredResets(db, reset.now);
      const stored = await store.insertResetForEmail(db, email, reset);
      if (stored && mailer.enabled) {
        deliverLater(email, oneTimeLink(config.publicUrl, 'reset-password', reset.token), onMailFailure);
      }
    },

    /**
     * An admin's reset link for a member of their account. With SMTP the link is emailed to the
     * member and `link` is left out, as for invitations; it is present when no email was sent.
     */
    async createForMember(principal: Principal, userId: string) {
      await requireAdmin(db, principal);
      const member = await accounts.getMember(principal.accountId, userId);
      const reset = newReset();
      await store.insertResetForUser(db, userId, reset);
      const link = oneTimeLink(config.publicUrl, 'reset-password', reset.token);
      const expires_at = reset.expiresAt.toISOString();
      if (!mailer.enabled) return { link, expires_at };
      try {
        await mailer.send(passwordResetEmail({ to: member.email, link }));
        return { expires_at };
      } catch (mailError) {
        return { link, expires_at, mailError };
      }
    },

    /** Sets the new password (checked by the route's schema), closes the person's links, ends their sessions. */
    async confirm(input: { token: string; password: string }): Promise<void> {
      const passwordHash = await hashPassword(input.password);
      const now = clock.now();
      const userId = await db.transaction().execute(async (trx) => {
        const claimed = await store.claimReset(trx, hashOneTimeToken(input.token), now);
        if (!claimed) throw invalidLink();
        await accounts.setPasswordHash(trx, claimed.user_id, passwordHash);
        await store.closeOtherResets(trx, claimed.user_id, now);
        return claimed.user_id;
      });
      await sessions.endAllForUser(userId);
    },

    /** Waits for the emails still on their way (tests, shutdown). */
    async settled(): Promise<void> {
      await Promise.all([...deliveries]);
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
