/**
 * A real OpenID Connect provider for the sign-in tests: oidc-provider on 127.0.0.1 (a random
 * port) with its built-in login form (devInteractions: any password; the login names the
 * account) and the accounts the tests sign in as. Consent is granted up front. Behind a small
 * front server, so a test can stop the provider, or answer the token endpoint with an ID token
 * signed by another key (a second provider, same issuer and stored codes, another signing key).
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export interface TestAccount {
  email: string;
  email_verified: boolean;
}

/** The provider's people; tests change an email by editing an entry. */
export const PROVIDER_ACCOUNTS: Record<string, TestAccount> = {
  owner: { email: 'owner@example.com', email_verified: true },
  unverified: { email: 'member@example.com', email_verified: false },
  mover: { email: 'mover@example.com', email_verified: true },
  colleague: { email: 'new.person@allowed.example', email_verified: true },
  stranger: { email: 'stranger@elsewhere.example', email_verified: true },
};

export const CLIENT_ID = 'touchtrail';
export const ID_TOKEN_TTL_S = 60;
export const CLIENT_SECRET = 'a-client-secret-for-tests-only';

export interface TestProvider {
  issuer: string;
  /** Sign ID tokens from the token endpoint with a key the provider never published. */
  signWithOtherKey(on: boolean): void;
  /** Stop answering (connections refused) until `resume`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One store for both providers, so the forger finds the codes the real one issued. A plain Map:
 * the tests are short, nothing needs expiring.
 */
function sharedAdapter() {
  const rows = new Map<string, Record<string, unknown>>();
  return class SharedAdapter {
    constructor(private readonly model: string) {}
    private key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: Record<string, unknown>) {
      rows.set(this.key(id), payload);
    }
    async find(id: string) {
      return rows.get(this.key(id));
    }
    async findByUid(uid: string) {
      return [...rows.entries()].find(
        ([key, row]) => key.startsWith(`${this.model}:`) && row.uid === uid,
      )?.[1];
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const row = rows.get(this.key(id));
      if (row) row.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      rows.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, row] of rows) if (row.grantId === grantId) rows.delete(key);
    }
  };
}

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  // The same kid for both keys: a forged token names the published key and fails its signature.
  return { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
}

export async function startTestProvider(options: {
  publicUrl: string;
  /** A public client (PKCE, no secret) instead of a confidential one. */
  publicClient?: boolean;
  /** Email claims only from userinfo (OIDC Core 5.4), as oidc-provider does by default. */
  claimsFromUserinfo?: boolean;
}): Promise<TestProvider> {
  let port = 0;
  let otherKey = false;
  let front: Server = createServer((req, res) => {
    const target = otherKey && req.url?.startsWith('/token') ? forger : provider;
    target.callback()(req, res);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  port = (front.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const handler = front.listeners('request')[0] as (...args: unknown[]) => void;

  const adapter = sharedAdapter();
  const configuration = (key: ReturnType<typeof signingKey>): Configuration => ({
    adapter,
    clients: [
      {
        client_id: CLIENT_ID,
        ...(options.publicClient
          ? { token_endpoint_auth_method: 'none' }
          : { client_secret: CLIENT_SECRET, token_endpoint_auth_method: 'client_secret_basic' }),
        redirect_uris: [`${options.publicUrl}/v1/auth/oidc/callback`],
        post_logout_redirect_uris: [`${options.publicUrl}/`],
      },
    ],
    jwks: { keys: [key] },
    cookies: { keys: ['test-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: options.claimsFromUserinfo ?? false,
    // Short, so a test can move the app's clock past an ID token's expiry within the start cookie's 10 minutes.
    ttl: { IdToken: ID_TOKEN_TTL_S },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      const account = PROVIDER_ACCOUNTS[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const accountId = ctx.oidc.session?.accountId;
      const client = ctx.oidc.client;
      if (!accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId });
      grant.addOIDCScope('openid email profile');
      grant.addOIDCClaims(['email', 'email_verified']);
      await grant.save();
      return grant;
    },
  });
  const provider = new Provider(issuer, configuration(signingKey()));
  const forger = new Provider(issuer, configuration(signingKey()));

  const listen = () =>
    new Promise<void>((resolve) => {
      front = createServer(handler);
      front.listen(port, '127.0.0.1', resolve);
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      front.closeAllConnections();
      front.close(() => resolve());
    });

  return {
    issuer,
    signWithOtherKey(on) {
      otherKey = on;
    },
    pause: stop,
    resume: listen,
    close: stop,
  };
}
