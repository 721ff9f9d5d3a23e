/**
 * `GET /v1/account/keys/current` (keys/current-key.routes.ts): any valid key describes itself as
 * the keys listing shows it, whatever its scopes, and never the key; anything else is 401.
 */
import { describe, expect, it } from 'vitest';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

describe('GET /v1/account/keys/current', () => {
  const t = useTestApp();
  const current = (headers: Record<string, string>) =>
    t.request({ method: 'GET', url: '/v1/account/keys/current', headers });

  it('answers the key as the listing shows it, for a key with any scope, and never the key', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const expiresAt = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    const key = await mintKey(t, t.owner.cookie, {
      scopes: ['ingest:write'],
      name: 'Checkout server',
      site_id: site.snippet_key,
      expires_at: expiresAt,
    });
    const response = await current(bearer(key.api_key));
    expect(response.statusCode).toBe(200);
    const listing = await t.request({
      method: 'GET',
      url: '/v1/account/keys',
      headers: { cookie: t.owner.cookie },
    });
    const listed = listing.json().keys.find((entry: { id: string }) => entry.id === key.id);
    expect(response.json()).toEqual({ ...listed, last_used_at: response.json().last_used_at });
    expect(response.json()).toMatchObject({
      id: key.id,
      name: 'Checkout server',
      scopes: ['ingest:write'],
      site_id: site.snippet_key,
      expires_at: expiresAt,
      revoked_at: null,
    });
    expect(response.body).not.toContain(key.api_key);
    expect(response.json()).not.toHaveProperty('api_key');
  });

  it('refuses a revoked or expired key, a dashboard session and no credential with 401', async () => {
    const revoked = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    await t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${revoked.id}`,
      headers: { cookie: t.owner.cookie },
    });
    const expiring = await mintKey(t, t.owner.cookie, {
      scopes: ['stats:read'],
      expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    t.clock.advance(120_000);
    const refused: Record<string, string>[] = [
      bearer(revoked.api_key),
      bearer(expiring.api_key),
      { cookie: t.owner.cookie },
      {},
    ];
    for (const headers of refused) {
      const response = await current(headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'unauthorized' });
    }
  });
});
