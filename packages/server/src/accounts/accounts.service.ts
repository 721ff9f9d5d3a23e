/**
 * First-run setup, the people of an account and their roles. An account always keeps at least
 * one admin. Who counts as an admin right now is decided in access/admin.ts.
 */
import type { Insertable, Kysely, Transaction } from 'kysely';
import { requireAdmin } from '../access/admin.js';
import { type Principal, SCOPES } from '../access/principal.js';
import type { Config } from '../config.js';
import { isUniqueViolation } from '../db/errors.js';
import { claimSetting, deleteSettings, readSetting } from '../db/settings.js';
import type { DB, Role, UsersTable } from '../db/types.js';
import { AppError, notFound, unauthorized } from '../http/errors.js';
import type { KeysService } from '../keys/keys.service.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { hashPassword, safeEqual, sha256Hex } from '../lib/secrets.js';
import * as store from './accounts.store.js';

export const SETUP_TOKEN_SETTING = 'setup_token_sha256';
/** What the printed setup token is derived from (instance.ts); forgotten with it at setup. */
export const SETUP_NONCE_SETTING = 'setup_token_nonce';
const SETUP_DONE_SETTING = 'setup_completed_at';

export interface SetupInput {
  setup_token: string;
  email: string;
  password: string;
  account_name?: string;
}

export interface NewMemberInput {
  email: string;
  password: string;
  role: Role;
}

export function createAccountsService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<Config, 'setupToken' | 'siteLimit'>;
  keys: Pick<KeysService, 'mint'>;
}) {
  const { db, clock, config, keys } = deps;

  async function isSetupTokenValid(token: string): Promise<boolean> {
    if (config.setupToken) return safeEqual(token, config.setupToken);
    const stored = await readSetting(db, SETUP_TOKEN_SETTING);
    return stored !== undefined && safeEqual(sha256Hex(token), stored);
  }

  return {
    /** What sign-in needs to check a password: the user, their hash, account and role. */
    findLogin(email: string) {
      return store.findLogin(db, email);
    },

    /** A person's email and password hash (null for OpenID Connect only); undefined when unknown. */
    findUser(userId: string) {
      return store.findUser(db, userId);
    },

    async isSetUp(): Promise<boolean> {
      return (await store.countAccounts(db)) > 0;
    },

    async setup(input: SetupInput) {
      if (await this.isSetUp()) throw new AppError(409, 'already_set_up', 'This server is already set up');
      if (!(await isSetupTokenValid(input.setup_token))) throw unauthorized('Wrong setup token');
      const passwordHash = await hashPassword(input.password);
      const now = clock.now();
      const accountId = newId();
      const userId = newId();
      return db.transaction().execute(async (trx) => {
        // The settings row is the one-time gate: of two concurrent setups, only one inserts it.
        if (!(await claimSetting(trx, SETUP_DONE_SETTING, now.toISOString()))) {
          throw new AppError(409, 'already_set_up', 'This server is already set up');
        }
        await store.insertAccount(trx, {
          id: accountId,
          name: input.account_name?.trim() || 'My account',
          site_limit: config.siteLimit,
          region: 'us',
          created_at: now,
        });
        await store.insertUser(
          trx,
          { id: userId, email: input.email, password_hash: passwordHash, created_at: now },
          { account_id: accountId, role: 'admin' },
        );
        await deleteSettings(trx, [SETUP_TOKEN_SETTING, SETUP_NONCE_SETTING]);
        const key = await keys.mint(trx, {
          accountId,
          createdBy: userId,
          name: 'Setup key',
          scopes: SCOPES,
          siteId: null,
          expiresAt: null,
        });
        return { account_id: accountId, user_id: userId, api_key: key.plaintext };
      });
    },

    async getAccount(accountId: string) {
      const account = await store.getAccount(db, accountId);
      if (!account) throw notFound('Account');
      return account;
    },

    async getMember(accountId: string, userId: string) {
      const member = await store.getMember(db, accountId, userId);
      if (!member) throw notFound('Member');
      return member;
    },

    /** Creates a person and their membership inside the caller's transaction (accepted invitations). */
    insertMember(
      trx: Transaction<DB>,
      user: Insertable<UsersTable>,
      membership: { account_id: string; role: Role },
    ) {
      return store.insertUser(trx, user, membership);
    },

    /** Stores a new password hash, inside the caller's transaction (reset, change). */
    setPasswordHash(trx: Transaction<DB>, userId: string, passwordHash: string) {
      return store.setPasswordHash(trx, userId, passwordHash);
    },

    async listMembers(principal: Principal) {
      await requireAdmin(db, principal);
      return store.listMembers(db, principal.accountId);
    },

    async addMember(principal: Principal, input: NewMemberInput) {
      await requireAdmin(db, principal);
      const passwordHash = await hashPassword(input.password);
      const userId = newId();
      try {
        await db
          .transaction()
          .execute((trx) =>
            store.insertUser(
              trx,
              { id: userId, email: input.email, password_hash: passwordHash, created_at: clock.now() },
              { account_id: principal.accountId, role: input.role },
            ),
          );
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError(409, 'email_taken', 'A person with this email already exists');
        throw error;
      }
      return this.getMember(principal.accountId, userId);
    },

    async changeRole(principal: Principal, userId: string, role: Role) {
      await requireAdmin(db, principal);
      await db.transaction().execute(async (trx) => {
        const admins = await store.lockAdmins(trx, principal.accountId);
        const member = await store.getMember(trx, principal.accountId, userId);
        if (!member) throw notFound('Member');
        if (member.role === 'admin' && role !== 'admin' && admins.length <= 1) {
          throw new AppError(409, 'last_admin', 'An account must keep at least one admin');
        }
        await store.updateRole(trx, principal.accountId, userId, role);
      });
      return this.getMember(principal.accountId, userId);
    },

    async removeMember(principal: Principal, userId: string) {
      await requireAdmin(db, principal);
      await db.transaction().execute(async (trx) => {
        const admins = await store.lockAdmins(trx, principal.accountId);
        const member = await store.getMember(trx, principal.accountId, userId);
        if (!member) throw notFound('Member');
        if (member.role === 'admin' && admins.length <= 1) {
          throw new AppError(409, 'last_admin', 'An account must keep at least one admin');
        }
        await store.deleteUser(trx, userId);
      });
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
