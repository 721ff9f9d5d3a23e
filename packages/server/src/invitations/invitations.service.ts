/**
 * Invitations by email with a role (DESIGN §8). An admin invites; the invitation is a
 * one-time link valid 7 days, emailed when SMTP is set, else (or when sending fails) answered to
 * the admin. Accepting it creates the member, with a password or, through OpenID Connect, with a
 * verified email and none. Re-inviting a pending email replaces its invitation.
 */
import type { Kysely } from 'kysely';
import { requireAdmin } from '../access/admin.js';
import { type Principal, personOf } from '../access/principal.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Config } from '../config.js';
import { isUniqueViolation } from '../db/errors.js';
import type { DB, Role } from '../db/types.js';
import { AppError, notFound } from '../http/errors.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { hashPassword } from '../lib/secrets.js';
import { invitationEmail } from '../mail/emails.js';
import type { Mailer } from '../mail/mailer.js';
import { hashOneTimeToken, invalidLink, newOneTimeToken, oneTimeLink } from '../mail/one-time-link.js';
import * as store from './invitations.store.js';

export const INVITATION_VALID_MS = 7 * DAY_MS;

const emailTaken = () => new AppError(409, 'email_taken', 'A person with this email already exists');

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  expires_at: string;
}

/** The member an accepted invitation created. */
export interface AcceptedInvitation {
  userId: string;
  accountId: string;
  role: Role;
}

const present = (row: store.InvitationRow): InvitationView => ({
  id: row.id,
  email: row.email,
  role: row.role,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
});

export function createInvitationsService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
  accounts: Pick<AccountsService, 'findLogin' | 'getAccount' | 'insertMember'>;
}) {
  const { db, clock, config, mailer, accounts } = deps;

  /** Claims the invitation and creates its member in one transaction; `email` must match when given. */
  async function accept(token: string, passwordHash: string | null, email?: string) {
    const now = clock.now();
    try {
      return await db.transaction().execute(async (trx): Promise<AcceptedInvitation> => {
        const invitation = await store.claimInvitation(trx, hashOneTimeToken(token), now, email);
        if (!invitation) throw invalidLink();
        const userId = newId();
        await accounts.insertMember(
          trx,
          // No password (null) for a person who signs in through OpenID Connect.
          { id: userId, email: invitation.email, password_hash: passwordHash, created_at: now },
          { account_id: invitation.account_id, role: invitation.role },
        );
        return { userId, accountId: invitation.account_id, role: invitation.role };
      });
    } catch (error) {
      // Someone took the email since the invitation was made (added directly, another account).
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  return {
    /**
     * Invites `email` with `role`. `link` is present when no email was sent: SMTP is off, or the
     * send failed (`mailError` then says why, for the caller's log; the invitation stands).
     */
    async invite(principal: Principal, input: { email: string; role: Role }) {
      await requireAdmin(db, principal);
      if (await accounts.findLogin(input.email)) throw emailTaken();
      const { token, tokenHash } = newOneTimeToken();
      const now = clock.now();
      const row = {
        id: newId(),
        account_id: principal.accountId,
        email: input.email,
        role: input.role,
        token_hash: tokenHash,
        invited_by: personOf(principal),
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_VALID_MS),
      };
      try {
        await db.transaction().execute(async (trx) => {
          await store.revokeOpenForEmail(trx, principal.accountId, input.email, now);
          await store.insertInvitation(trx, row);
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError(409, 'conflict', 'This email was invited at the same moment; retry');
        throw error;
      }
      const invitation = present(row);
      const link = oneTimeLink(config.publicUrl, 'accept-invitation', token);
      if (!mailer.enabled) return { invitation, link };
      const account = await accounts.getAccount(principal.accountId);
      try {
        await mailer.send(
          invitationEmail({
            to: input.email,
            accountName: account.name,
            role: input.role,
            link,
          }),
        );
        return { invitation };
      } catch (mailError) {
        return { invitation, link, mailError };
      }
    },

    async list(principal: Principal): Promise<InvitationView[]> {
      await requireAdmin(db, principal);
      return (await store.listPending(db, principal.accountId, clock.now())).map(present);
    },

    /** Revokes an invitation not yet accepted (again is fine); 404 when the account has no such one. */
    async revoke(principal: Principal, id: string): Promise<void> {
      await requireAdmin(db, principal);
      if ((await store.revokeInvitation(db, principal.accountId, id, clock.now())) === 0)
        throw notFound('Invitation');
    },

    /** Accepts with a new password (checked by the route's schema); the caller starts the session. */
    async acceptWithPassword(input: { token: string; password: string }): Promise<AcceptedInvitation> {
      return accept(input.token, await hashPassword(input.password));
    },

    /**
     * For OpenID Connect: accepts the invitation for a person whose provider-verified email equals
     * the invitation's (in any case), creating them without a password. Throws the same 400
     * `invalid_token` as a password accept for an unknown, used, revoked or expired token or
     * another email, and 409 `email_taken` when that email already has an account.
     */
    async acceptForIdentity(input: { token: string; email: string }): Promise<AcceptedInvitation> {
      return accept(input.token, null, input.email.toLowerCase());
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
