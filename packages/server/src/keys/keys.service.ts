/**
 * API keys: minting, listing, revoking, and checking a presented key. A key can never mint a
 * key more capable than itself: its scopes must cover the new key's, a key restricted to one
 * site mints only for that site, and a key that expires mints only keys that expire no later.
 */
import type { Kysely } from 'kysely';
import { isAdmin } from '../access/admin.js';
import { type KeyPrincipal, type Principal, personOf, type Scope, scopesOf } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { AppError, badInput, forbidden, insufficientScope, notFound } from '../http/errors.js';
import { type Clock, MINUTE_MS } from '../lib/clock.js';
import { API_KEY_PATTERN, newApiKey, newId } from '../lib/ids.js';
import { sha256Hex } from '../lib/secrets.js';
import { findKeyByHash, getKey, insertKey, listKeys, revokeKey, touchKey } from './keys.store.js';

const DISPLAY_PREFIX_LENGTH = 12;

export interface MintKeyInput {
  accountId: string;
  createdBy: string | null;
  name: string;
  scopes: readonly Scope[];
  siteId: string | null;
  expiresAt: Date | null;
}

export interface CreateKeyInput {
  name: string;
  scopes: Scope[];
  /** The one site the key reaches, already resolved for the caller (sites.getReachableSite); null for every site. */
  site: { id: string } | null;
  expires_at?: string | null;
}

/** A key can never mint a key with a scope it lacks itself. */
export function requireGrantableScopes(principal: Principal, scopes: readonly Scope[]): void {
  const held = scopesOf(principal);
  const missing = scopes.find((scope) => !held.includes(scope));
  if (missing)
    throw insufficientScope(missing, `A key cannot mint a key with ${missing}, which it lacks itself`);
}

type KeyRow = NonNullable<Awaited<ReturnType<typeof getKey>>>;

function present(row: Omit<KeyRow, 'site_id'>) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.display_prefix,
    scopes: row.scopes as Scope[],
    site_id: row.snippet_key,
    created_by: row.created_by,
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

export type KeyView = ReturnType<typeof present>;

export function createKeysService({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  /** Inserts a key through `executor` (so callers can mint inside their own transaction). */
  async function mint(executor: Kysely<DB>, input: MintKeyInput): Promise<{ id: string; plaintext: string }> {
    const plaintext = newApiKey();
    const id = newId();
    await insertKey(executor, {
      id,
      account_id: input.accountId,
      created_by: input.createdBy,
      name: input.name,
      display_prefix: plaintext.slice(0, DISPLAY_PREFIX_LENGTH),
      key_hash: sha256Hex(plaintext),
      scopes: [...input.scopes],
      site_id: input.siteId,
      expires_at: input.expiresAt,
      created_at: clock.now(),
    });
    return { id, plaintext };
  }

  return {
    mint,

    /** The principal behind a presented key, or null when it is unknown, revoked or expired. */
    async authenticate(token: string): Promise<KeyPrincipal | null> {
      if (!API_KEY_PATTERN.test(token)) return null;
      const row = await findKeyByHash(db, sha256Hex(token));
      const now = clock.now();
      if (!row || row.revoked_at || (row.expires_at && row.expires_at <= now)) return null;
      const staleBefore = new Date(now.getTime() - MINUTE_MS);
      if (!row.last_used_at || row.last_used_at < staleBefore) {
        await touchKey(db, row.id, now, staleBefore);
      }
      return {
        kind: 'key',
        accountId: row.account_id,
        keyId: row.id,
        createdBy: row.created_by,
        scopes: row.scopes as Scope[],
        siteId: row.site_id,
      };
    },

    async create(principal: Principal, input: CreateKeyInput) {
      requireGrantableScopes(principal, input.scopes);
      if (!input.site && principal.kind === 'key' && principal.siteId) {
        throw new AppError(
          403,
          'insufficient_scope',
          'A key restricted to one site mints keys for that site only',
          {
            extra: { required_scope: 'credentials:write' },
          },
        );
      }
      let expiresAt: Date | null = null;
      if (input.expires_at) {
        expiresAt = new Date(input.expires_at);
        if (expiresAt <= clock.now()) throw badInput('expires_at', 'expires_at must be in the future');
      }
      // A key that expires would otherwise outlive itself through the keys it mints.
      const ceiling =
        principal.kind === 'key'
          ? ((await getKey(db, principal.accountId, principal.keyId))?.expires_at ?? null)
          : null;
      if (ceiling) {
        if (!expiresAt) expiresAt = ceiling;
        else if (expiresAt > ceiling) {
          throw badInput(
            'expires_at',
            `A key cannot mint a key that outlives it: expires_at must not be after ${ceiling.toISOString()}`,
          );
        }
      }
      const { id, plaintext } = await mint(db, {
        accountId: principal.accountId,
        createdBy: principal.kind === 'session' ? principal.userId : principal.createdBy,
        name: input.name,
        scopes: [...new Set(input.scopes)],
        siteId: input.site?.id ?? null,
        expiresAt,
      });
      const row = await getKey(db, principal.accountId, id);
      if (!row) throw new Error('key vanished after insert');
      return { ...present(row), api_key: plaintext };
    },

    async list(principal: Principal): Promise<KeyView[]> {
      const siteId = principal.kind === 'key' ? principal.siteId : null;
      return (await listKeys(db, principal.accountId, siteId)).map(present);
    },

    async revoke(principal: Principal, id: string): Promise<void> {
      const row = await getKey(db, principal.accountId, id);
      const outOfReach =
        principal.kind === 'key' && principal.siteId !== null && row?.site_id !== principal.siteId;
      if (!row || outOfReach) throw notFound('Key');
      // The person behind the caller (a session's user, a key's creator) revokes only the keys they
      // made unless they are an admin now; a key may always revoke itself.
      const isSelf = principal.kind === 'key' && principal.keyId === id;
      const person = personOf(principal);
      const isOwn = person !== null && row.created_by === person;
      if (!isSelf && !isOwn && !(await isAdmin(db, principal.accountId, person))) {
        throw forbidden('Only an admin can revoke keys made by someone else');
      }
      await revokeKey(db, id, clock.now());
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
