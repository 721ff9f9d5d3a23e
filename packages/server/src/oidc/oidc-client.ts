/**
 * The relying-party side of OpenID Connect, through `openid-client`: discovery (fetched on first
 * use and kept; fetched again after a failure), the authorization URL, the code exchange with
 * every ID token check, and the provider's logout URL. ID token times are checked against our
 * clock, so the server's one source of "now" decides expiry here too.
 */
import * as client from 'openid-client';
import type { OidcConfig } from '../config.js';
import type { Clock } from '../lib/clock.js';

const PROVIDER_TIMEOUT_S = 10;

/** The claims sign-in needs, from the ID token or, when the provider keeps them there, userinfo. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  idToken: string;
}

export interface StartParameters {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export function createOidcClient(deps: { oidc: OidcConfig; redirectUri: string; clock: Clock }) {
  const { oidc, redirectUri, clock } = deps;
  const isHttp = oidc.issuer.startsWith('http://');
  const auth = oidc.clientSecret ? client.ClientSecretBasic(oidc.clientSecret) : client.None();
  let server: Promise<client.ServerMetadata> | undefined;
  let jwksCache: client.ExportedJWKSCache | undefined;

  function discover(): Promise<client.ServerMetadata> {
    server ??= client
      .discovery(new URL(oidc.issuer), oidc.clientId, undefined, auth, {
        execute: isHttp ? [client.allowInsecureRequests] : [],
        timeout: PROVIDER_TIMEOUT_S,
      })
      .then((configuration) => configuration.serverMetadata());
    server.catch(() => {
      server = undefined;
    });
    return server;
  }

  /** A configuration for one request, with the clock's offset from real time as openid-client's skew. */
  async function configure(): Promise<client.Configuration> {
    const skewS = Math.round((clock.now().getTime() - Date.now()) / 1000);
    const configuration = new client.Configuration(
      await discover(),
      oidc.clientId,
      { [client.clockSkew]: skewS },
      auth,
    );
    configuration.timeout = PROVIDER_TIMEOUT_S;
    if (isHttp) client.allowInsecureRequests(configuration);
    // Also check the ID token's signature against the provider's published keys: TLS to the
    // token endpoint would do per the spec, but a signature check costs little and holds anyway.
    client.enableNonRepudiationChecks(configuration);
    if (jwksCache) client.setJwksCache(configuration, jwksCache);
    return configuration;
  }

  return {
    async authorizationUrl(start: StartParameters): Promise<URL> {
      const configuration = await configure();
      return client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: oidc.scopes,
        state: start.state,
        nonce: start.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(start.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    /** Exchanges the callback's code; throws openid-client's errors when any check fails. */
    async exchange(callbackUrl: URL, start: StartParameters): Promise<ProviderIdentity> {
      const configuration = await configure();
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: start.codeVerifier,
        expectedState: start.state,
        expectedNonce: start.nonce,
        idTokenExpected: true,
      });
      jwksCache = client.getJwksCache(configuration) ?? jwksCache;
      const claims = tokens.claims();
      if (!claims || !tokens.id_token) throw new Error('no ID token in the token response');
      let { email, email_verified: emailVerified } = claims as { email?: unknown; email_verified?: unknown };
      if (email === undefined) {
        // Providers that follow OIDC Core 5.4 strictly send scope claims only from userinfo.
        const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
        ({ email, email_verified: emailVerified } = info);
      }
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof email === 'string' ? email.toLowerCase() : undefined,
        emailVerified: emailVerified === true,
        idToken: tokens.id_token,
      };
    },

    /** The provider's logout URL, or undefined when it offers none (Google) or cannot be reached. */
    async endSessionUrl(idToken: string, postLogoutRedirectUri: string): Promise<URL | undefined> {
      const configuration = await configure().catch(() => undefined);
      if (!configuration?.serverMetadata().end_session_endpoint) return undefined;
      return client.buildEndSessionUrl(configuration, {
        id_token_hint: idToken,
        post_logout_redirect_uri: postLogoutRedirectUri,
      });
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;

/** Why the provider's part failed, in words safe for a page and a log line (no tokens, no emails). */
export function classifyProviderError(
  error: unknown,
): 'provider_unreachable' | 'provider_refused' | 'invalid_response' {
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    return 'provider_refused';
  }
  if (error instanceof client.ClientError) {
    const code = (error as { code?: string }).code;
    return code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON'
      ? 'provider_unreachable'
      : 'invalid_response';
  }
  // fetch's own failures (refused, reset, DNS) and our timeout.
  if (error instanceof TypeError || (error instanceof DOMException && /Timeout|Abort/.test(error.name))) {
    return 'provider_unreachable';
  }
  return 'invalid_response';
}
