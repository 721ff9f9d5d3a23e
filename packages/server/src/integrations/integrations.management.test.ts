/**
 * Connecting, listing and disconnecting payment processors (DESIGN.md §11), and the rule that
 * makes double counting impossible: a connected processor's payments are refused on
 * POST /v1/server/payments.
 */
import { describe, expect, it } from 'vitest';
import { postPayment } from '../payments/payments.fixtures.js';
import { bearer, login, mintKey } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { connectProcessor, listConnections, useProcessorTestApp } from './integrations.fixtures.js';

const SECRET = 'whsec_test_secret_0123456789abcdef';

describe('processor connections', () => {
  const t = useProcessorTestApp();
  const post = (siteKey: string, payload: object, key = t.owner.apiKey) =>
    t.request({ method: 'POST', url: `/v1/sites/${siteKey}/integrations`, headers: bearer(key), payload });

  it('connects a processor, answers its receiving URL, and never shows the secret again', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const connection = await connectProcessor(t, site.snippet_key, 'stripe', SECRET, {
      name: ' Live account ',
    });
    expect(connection).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      provider: 'stripe',
      name: 'Live account',
      receive_url: `${t.config.publicUrl}/v1/integrations/stripe/${connection.id}`,
      created_at: t.clock.now().toISOString(),
      last_event_at: null,
      last_error: null,
      last_error_at: null,
      events_received: 0,
    });
    const listed = await listConnections(t, site.snippet_key);
    expect(listed).toEqual([connection]);
    const stored = await t.database.db
      .selectFrom('processor_connections')
      .select('secret_sealed')
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_sealed).not.toContain(SECRET);
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    expect(t.logs()).not.toContain(SECRET);
  });

  it('takes one connection per processor and site (409 provider_connected), others side by side', async () => {
    const site = await insertSite(t, t.owner.accountId);
    await connectProcessor(t, site.snippet_key, 'paddle', 'pdl_ntfset_01_secret');
    const again = await post(site.snippet_key, { provider: 'paddle', signing_secret: 'pdl_ntfset_other' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'provider_connected',
      message: 'paddle is already connected to this site',
      field: 'provider',
    });
    await connectProcessor(t, site.snippet_key, 'polar', 'polar_whs_secret');
    expect((await listConnections(t, site.snippet_key)).map((c) => c.provider).sort()).toEqual([
      'paddle',
      'polar',
    ]);
  });

  it('refuses bad bodies with 422 in the sites shape and stores nothing', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const cases: [object, string][] = [
      [{ signing_secret: SECRET }, 'provider'],
      [{ provider: 'square', signing_secret: SECRET }, 'provider'],
      [{ provider: 'STRIPE', signing_secret: SECRET }, 'provider'],
      [{ provider: 'stripe' }, 'signing_secret'],
      [{ provider: 'stripe', signing_secret: '   ' }, 'signing_secret'],
      [{ provider: 'stripe', signing_secret: 42 }, 'signing_secret'],
      [{ provider: 'stripe', signing_secret: 'x'.repeat(513) }, 'signing_secret'],
      // An API key pasted where the webhook signing secret belongs could never verify anything.
      [{ provider: 'stripe', signing_secret: 'sk_live_51Hx' }, 'signing_secret'],
      [{ provider: 'paddle', signing_secret: 'pdl_live_apikey_01' }, 'signing_secret'],
      [{ provider: 'stripe', signing_secret: SECRET, name: 'n'.repeat(61) }, 'name'],
      [{ provider: 'stripe', signing_secret: SECRET, default_currency: 'XYZ' }, 'default_currency'],
      [{ provider: 'stripe', signing_secret: SECRET, default_currency: 5 }, 'default_currency'],
      [{ provider: 'stripe', signing_secret: SECRET, webhook: 'x' }, 'webhook'],
    ];
    for (const [payload, field] of cases) {
      const response = await post(site.snippet_key, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json(), JSON.stringify(payload)).toMatchObject({ error: 'validation_failed', field });
    }
    const notJson = await t.request({
      method: 'POST',
      url: `/v1/sites/${site.snippet_key}/integrations`,
      headers: { ...bearer(t.owner.apiKey), 'content-type': 'application/json' },
      payload: '{"provider":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(await listConnections(t, site.snippet_key)).toEqual([]);
  });

  it('keeps other accounts and narrower keys out', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const rival = await insertAccount(t);
    const rivalSite = await insertSite(t, rival.accountId);
    const foreign = await post(rivalSite.snippet_key, { provider: 'stripe', signing_secret: SECRET });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: 'not_found' });

    const reader = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    const refused = await post(
      site.snippet_key,
      { provider: 'stripe', signing_secret: SECRET },
      reader.api_key,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'insufficient_scope' });
    const listed = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.snippet_key}/integrations`,
      headers: bearer(reader.api_key),
    });
    expect(listed.statusCode).toBe(200);

    const rivalCookie = await login(t, { email: rival.email, password: rival.password });
    const rivalList = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.id}/integrations`,
      headers: { cookie: rivalCookie },
    });
    expect(rivalList.statusCode).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: `/v1/sites/${site.snippet_key}/integrations` })).statusCode,
    ).toBe(401);
  });

  it('disconnects: the receiving URL answers 404 and the processor may post to the payments endpoint again', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const connection = await connectProcessor(t, site.snippet_key, 'lemonsqueezy', 'ls_signing_secret');
    const payment = { site_id: site.snippet_key, transaction_id: 'ord_1', amount: 10, currency: 'EUR' };
    const refused = await postPayment(t, t.owner.apiKey, { ...payment, provider: 'lemonsqueezy' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'provider_connected',
      message:
        'lemonsqueezy is connected to this site and records its payments itself; posting them here too would count each twice',
    });
    // Another provider label, and the default one, still go through.
    expect((await postPayment(t, t.owner.apiKey, { ...payment, provider: 'gumroad' })).statusCode).toBe(202);
    expect((await postPayment(t, t.owner.apiKey, payment)).statusCode).toBe(202);
    expect(
      await t.database.db.selectFrom('payments').select('provider').where('site_id', '=', site.id).execute(),
    ).toEqual(expect.arrayContaining([{ provider: 'gumroad' }, { provider: 'api' }]));

    const removeUrl = `/v1/sites/${site.snippet_key}/integrations/${connection.id}`;
    const removed = await t.request({ method: 'DELETE', url: removeUrl, headers: bearer(t.owner.apiKey) });
    expect(removed.statusCode).toBe(204);
    expect(
      (await t.request({ method: 'DELETE', url: removeUrl, headers: bearer(t.owner.apiKey) })).statusCode,
    ).toBe(404);
    const receive = await fetch(`${t.baseUrl}${new URL(connection.receive_url).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(receive.status).toBe(404);
    expect(await receive.json()).toEqual({ error: 'not_found', message: 'Connection not found' });
    expect((await postPayment(t, t.owner.apiKey, { ...payment, provider: 'lemonsqueezy' })).statusCode).toBe(
      202,
    );
  });

  it('answers 404 for receiving URLs that name no connection, 422 for malformed ones', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const connection = await connectProcessor(t, site.snippet_key, 'stripe', SECRET);
    const statusOf = async (path: string) =>
      (await fetch(`${t.baseUrl}${path}`, { method: 'POST', body: '{}' })).status;
    expect(await statusOf(`/v1/integrations/paddle/${connection.id}`)).toBe(404);
    expect(await statusOf('/v1/integrations/stripe/6f1c2a7e-93b4-4d0a-9a51-3c8e2f7b1d44')).toBe(404);
    expect(await statusOf(`/v1/integrations/square/${connection.id}`)).toBe(422);
    expect(await statusOf('/v1/integrations/stripe/not-a-uuid')).toBe(422);
  });

  it('sets the site currency from the connection unless it was chosen by hand', async () => {
    const site = await insertSite(t, t.owner.accountId);
    await connectProcessor(t, site.snippet_key, 'stripe', SECRET, { default_currency: 'eur' });
    const currencyOf = async (siteKey: string) =>
      (
        await t.request({ method: 'GET', url: `/v1/sites/${siteKey}`, headers: bearer(t.owner.apiKey) })
      ).json().currency;
    expect(await currencyOf(site.snippet_key)).toBe('EUR');
    // A second processor with another default does not change it again.
    await connectProcessor(t, site.snippet_key, 'paddle', 'pdl_ntfset_secret', { default_currency: 'GBP' });
    expect(await currencyOf(site.snippet_key)).toBe('EUR');

    const chosen = await insertSite(t, t.owner.accountId);
    const patched = await t.request({
      method: 'PATCH',
      url: `/v1/sites/${chosen.snippet_key}`,
      headers: bearer(t.owner.apiKey),
      payload: { currency: 'USD' },
    });
    expect(patched.statusCode).toBe(200);
    await connectProcessor(t, chosen.snippet_key, 'stripe', SECRET, { default_currency: 'EUR' });
    expect(await currencyOf(chosen.snippet_key)).toBe('USD');
  });
});
