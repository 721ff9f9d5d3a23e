/** OIDC_* configuration: an http:// issuer only on loopback hosts, one line naming the variable otherwise. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

const base = { OIDC_CLIENT_ID: 'touchtrail' };

describe('OIDC configuration', () => {
  it.each([
    'https://idp.example.com/realms/main',
    'http://127.0.0.1:8081',
    'http://localhost:8081',
    'http://[::1]:8081',
  ])('accepts the issuer %s', (issuer) => {
    expect(loadConfig({ ...base, OIDC_ISSUER: issuer }).oidc?.issuer).toBe(issuer);
  });

  it.each(['http://idp.example.com', 'http://10.0.0.5:8080', 'http://127.0.0.1.nip.io'])(
    'refuses the plain-http issuer %s in one line',
    (issuer) => {
      expect(() => loadConfig({ ...base, OIDC_ISSUER: issuer })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, OIDC_ISSUER: issuer })).toThrow(
        /^OIDC_ISSUER: must be an https:\/\/ URL \(http:\/\/ only for localhost or 127\.0\.0\.1\) \(see README\.md\)$/,
      );
    },
  );

  it('reads scopes, allowed domains (lower-cased, trimmed) and the name, with their defaults', () => {
    const config = loadConfig({
      ...base,
      OIDC_ISSUER: 'https://login.example.com',
      OIDC_ALLOWED_DOMAINS: ' Example.COM, ,other.example ',
    });
    expect(config.oidc).toEqual({
      issuer: 'https://login.example.com',
      clientId: 'touchtrail',
      clientSecret: undefined,
      scopes: 'openid email profile',
      allowedDomains: ['example.com', 'other.example'],
      name: 'login.example.com',
    });
  });
});
