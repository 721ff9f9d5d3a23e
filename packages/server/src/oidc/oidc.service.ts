/**
 * OpenID Connect sign-in (DESIGN §8). The start cookie carries state, nonce and the
 * PKCE verifier, sealed; the callback checks them (openid-client checks the ID token) and finds
 * the member: by the stored (issuer, sub) link, else on first sign-in by verified email, else
 * through an invitation, else by an allowed email domain (joining as `member`). Each match that
 * was not the link stores the link, so a later email change at the provider still signs them in.
 */
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Config } from '../config.js';
import { isUniqueViolation } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError } from '../http/errors.js';
import type { InvitationsService } from '../invitations/invitations.service.js';
import { type Clock, MINUTE_MS } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { sha256Hex } from '../lib/secrets.js';
import type { SessionsService } from '../sign-in/sessions.service.js';
import * as store from './oidc.store.js';
import {
  classifyProviderError,
  createOidcClient,
  type ProviderIdentity,
  type StartParameters,
} from './oidc-client.js';
import { OidcSignInError } from './oidc-errors.js';
import { createOidcSeal } from './oidc-seal.js';

export const OIDC_START_VALID_MS = 10 * MINUTE_MS;
export const OIDC_CALLBACK_PATH = '/v1/auth/oidc/callback';

interface StartCookie extends StartParameters {
  invitation: string | undefined;
  expiresAt: number;
}

interface Member {
  userId: string;
  accountId: string;
}

export function createOidcService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
  sessions: Pick<SessionsService, 'start' | 'logout'>;
  invitations: Pick<InvitationsService, 'acceptForIdentity'>;
  accounts: Pick<AccountsService, 'findLogin' | 'insertMember'>;
}) {
  const { db, clock, config, sessions, invitations, accounts } = deps;
  const { oidc } = config;
  if (!config.secretKey) throw new Error('config.secretKey must be resolved before the services are built');
  const seal = createOidcSeal(config.secretKey);
  const provider = oidc
    ? createOidcClient({ oidc, redirectUri: `${config.publicUrl}${OIDC_CALLBACK_PATH}`, clock })
    : undefined;

  const requireProvider = () => {
    if (!provider) throw new OidcSignInError('not_configured');
    return provider;
  };

  function readStartCookie(sealed: string | undefined): StartCookie {
    const opened = sealed ? seal.open(sealed, 'oidc-start') : undefined;
    const start = opened ? (JSON.parse(opened) as StartCookie) : undefined;
    if (!start || start.expiresAt <= clock.now().getTime()) throw new OidcSignInError('missing_start');
    return start;
  }

  async function findMember(identity: ProviderIdentity, invitation: string | undefined): Promise<Member> {
    const linked = await store.findLinkedUser(db, identity.issuer, identity.subject);
    const byLink = linked && (await store.findMembership(db, linked.user_id));
    if (byLink) return { userId: byLink.user_id, accountId: byLink.account_id };
    const { email } = identity;
    if (!email || !identity.emailVerified) throw new OidcSignInError('email_unverified');
    const byEmail = await memberByEmail(email);
    // Their email now names another account at the provider (reassigned, or a second account):
    // the person signs in with the one they linked, not with whoever holds the address today.
    if (byEmail && (await store.hasLinkAt(db, identity.issuer, byEmail.userId))) {
      throw new OidcSignInError('linked_elsewhere');
    }
    const member = byEmail ?? (await memberByInvitation(email, invitation)) ?? (await joinByDomain(email));
    if (!member) throw new OidcSignInError('not_member');
    await store.insertLink(db, { ...identity, user_id: member.userId, now: clock.now() });
    return member;
  }

  async function memberByEmail(email: string): Promise<Member | undefined> {
    const row = await accounts.findLogin(email);
    return row && { userId: row.user_id, accountId: row.account_id };
  }

  async function memberByInvitation(email: string, token: string | undefined): Promise<Member | undefined> {
    if (!token) return undefined;
    try {
      return await invitations.acceptForIdentity({ token, email });
    } catch (error) {
      if (error instanceof AppError && error.status === 400) throw new OidcSignInError('invitation_invalid');
      // 409: the email got an account since the match above; sign that person in.
      if (error instanceof AppError && error.status === 409) return memberByEmail(email);
      throw error;
    }
  }

  async function joinByDomain(email: string): Promise<Member | undefined> {
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!oidc?.allowedDomains.includes(domain)) return undefined;
    const account = await store.findOnlyAccount(db);
    if (!account) return undefined;
    const now = clock.now();
    const userId = newId();
    try {
      await db
        .transaction()
        .execute((trx) =>
          accounts.insertMember(
            trx,
            { id: userId, email, password_hash: null, created_at: now },
            { account_id: account.id, role: 'member' },
          ),
        );
    } catch (error) {
      // A parallel callback for the same person created them first.
      if (isUniqueViolation(error)) return memberByEmail(email);
      throw error;
    }
    return { userId, accountId: account.id };
  }

  return {
    /** What the sign-in page offers besides the password, or null when no provider is set. */
    providerLink(): { name: string; start_url: string } | null {
      return oidc ? { name: oidc.name, start_url: `${config.publicUrl}/v1/auth/oidc/start` } : null;
    },

    /** The provider URL to send the browser to, and the sealed start cookie to set beside it. */
    async begin(input: { invitation?: string }): Promise<{ redirectUrl: string; cookie: string }> {
      const start: StartCookie = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        invitation: input.invitation,
        expiresAt: clock.now().getTime() + OIDC_START_VALID_MS,
      };
      const url = await requireProvider()
        .authorizationUrl(start)
        .catch((error: unknown) => {
          throw new OidcSignInError(classifyProviderError(error), { cause: error });
        });
      return { redirectUrl: url.href, cookie: seal.seal(JSON.stringify(start), 'oidc-start') };
    },

    /** Completes the sign-in from the callback's query string; answers the new session's cookie value. */
    async finish(input: {
      search: string;
      startCookie: string | undefined;
      userAgent: string | undefined;
    }): Promise<string> {
      const oidcClient = requireProvider();
      const start = readStartCookie(input.startCookie);
      const params = new URLSearchParams(input.search);
      if (params.has('error')) throw new OidcSignInError('provider_refused');
      if (params.get('state') !== start.state) throw new OidcSignInError('state_mismatch');
      const now = clock.now();
      if (!(await store.useState(db, sha256Hex(start.state), new Date(start.expiresAt), now))) {
        throw new OidcSignInError('replayed');
      }
      const callbackUrl = new URL(`${config.publicUrl}${OIDC_CALLBACK_PATH}?${params}`);
      const identity = await oidcClient.exchange(callbackUrl, start).catch((error: unknown) => {
        throw new OidcSignInError(classifyProviderError(error), { cause: error });
      });
      const member = await findMember(identity, start.invitation);
      const token = await sessions.start({ ...member, userAgent: input.userAgent });
      await store.insertOidcSession(db, {
        sessionTokenHash: sha256Hex(token),
        idTokenSealed: seal.seal(identity.idToken, 'oidc-id-token'),
        now,
      });
      return token;
    },

    /**
     * Ends the session; when it began at the provider and the provider offers logout, answers the
     * provider's logout URL (it returns the browser to PUBLIC_URL), else undefined.
     */
    async logout(sessionToken: string | undefined): Promise<string | undefined> {
      if (!sessionToken) return undefined;
      const row = await store.findOidcSession(db, sha256Hex(sessionToken));
      await sessions.logout(sessionToken);
      const idToken = row && seal.open(row.id_token_sealed, 'oidc-id-token');
      if (!provider || !idToken) return undefined;
      return (await provider.endSessionUrl(idToken, `${config.publicUrl}/`))?.href;
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
