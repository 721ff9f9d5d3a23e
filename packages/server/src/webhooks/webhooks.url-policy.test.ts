/**
 * The endpoint URL rules that keep webhooks off private networks, through HTTP, on an app built without WEBHOOK_ALLOW_PRIVATE_TARGETS:
 * IPv4-compatible IPv6 literals and host names that cannot be public are refused on create and
 * update with the webhooks area's 422 (§7.3), and a test ping to such an address already stored
 * is refused before any connection is tried (200 with `ok: false`, as for any failed ping).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addSite, asKey, siteUuid } from '../sites/sites.fixtures.js';
import { useTestApp } from '../test/app.js';
import { createSecretBox, newWebhookSecret } from './webhook-secrets.js';
import { deliveryRows, type WebhookApi, webhookApi } from './webhooks.test-app.js';

const REFUSED_URLS = [
  'https://[::127.0.0.1]/hook',
  'https://[::7f00:1]/hook',
  'https://[::169.254.169.254]/latest/meta-data/',
  'https://[::10.0.0.1]/hook',
  'https://[::192.168.1.1]/hook',
  'https://[2002:a9fe:a9fe::1]/hook',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
  'https://vm./hook',
  'https://localhost../hook',
  'https://hooks/hook',
  'https://hooks.example.com./hook',
];

describe('webhook URL policy without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  const t = useTestApp();
  let api: WebhookApi;
  let siteId: string;
  beforeAll(async () => {
    const site = await addSite(t, asKey(t.owner.apiKey), 'strict-hooks.example');
    siteId = await siteUuid(t, site.site_id);
    api = webhookApi(t, asKey(t.owner.apiKey), site.site_id);
  });

  /** Written straight to the table, as an endpoint saved before these rules would be. */
  async function storeEndpoint(url: string) {
    const id = randomUUID();
    const secrets = createSecretBox(t.config.secretKey ?? '');
    await t.database.db
      .insertInto('webhooks')
      .values({
        site_id: siteId,
        id,
        url,
        event_types: ['ai_session.classified'],
        verification_status: 'verified',
        secret_sealed: secrets.seal(newWebhookSecret(), id),
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .execute();
    return id;
  }

  it.each(REFUSED_URLS)('refuses %s on create with 422 validation_failed, storing nothing', async (url) => {
    const response = await api.create({ url });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      field: 'url',
      message: expect.any(String),
    });
    expect(response.json().message).toMatch(/^url /);
    expect((await api.list()).json().webhooks).toEqual([]);
  });

  it('refuses the same URLs on update, leaving the endpoint as it was', async () => {
    const id = await storeEndpoint('https://hooks.example.com/in');
    try {
      for (const url of REFUSED_URLS) {
        const response = await api.update(id, { url });
        expect(response.statusCode, url).toBe(422);
        expect(response.json(), url).toEqual({
          error: 'validation_failed',
          field: 'url',
          message: expect.any(String),
        });
      }
      expect((await api.list()).json().webhooks).toEqual([
        expect.objectContaining({ id, url: 'https://hooks.example.com/in', verification_status: 'verified' }),
      ]);
    } finally {
      await api.remove(id);
    }
  });

  it('refuses a test ping to a stored IPv4-compatible loopback address without connecting', async () => {
    const id = await storeEndpoint('https://[::7f00:1]:9/hook');
    try {
      const response = await api.test(id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        ok: false,
        status_code: 0,
        latency_ms: 0,
        response_snippet: 'refused: ::7f00:1 is a loopback address',
        verification_status: 'failing',
      });
      const [ping] = await deliveryRows(t, id);
      expect(ping).toMatchObject({ status: 'failed', last_error: 'refused: ::7f00:1 is a loopback address' });
    } finally {
      await api.remove(id);
    }
  });
});
