/**
 * Who may do what (interface §4.3, §5, §7.3): the scope of every route, 401 without a valid
 * credential, 403 Forbidden for a site out of reach or in its deletion window, and that
 * private targets are refused unless the app was built with WEBHOOK_ALLOW_PRIVATE_TARGETS.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../access/principal.js';
import { addOtherAccount, addSite, asKey, asSession } from '../sites/sites.fixtures.js';
import { mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import type { TestReceiver } from './webhooks.fixtures.js';
import { useWebhookTestApp, webhookApi } from './webhooks.test-app.js';

const ALL: Scope[] = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'];

describe('webhook access', () => {
  const w = useWebhookTestApp();
  let receiver: TestReceiver;
  let hookId: string;
  beforeAll(async () => {
    receiver = await w.startReceiver();
    hookId = (await w.api.add(receiver.url)).id;
  });

  const calls = (
    api: ReturnType<typeof webhookApi>,
  ): [string, Scope, () => ReturnType<typeof api.list>][] => [
    ['list', 'stats:read', () => api.list()],
    ['deliveries', 'stats:read', () => api.deliveries(hookId)],
    ['create', 'credentials:write', () => api.create({ url: receiver.url })],
    ['rotate', 'credentials:write', () => api.rotate(hookId)],
    ['update', 'config:write', () => api.update(hookId, { enabled: true })],
    ['test', 'config:write', () => api.test(hookId)],
    ['delete', 'config:write', () => api.remove(crypto.randomUUID())],
  ];

  it('asks each route for its scope, naming it in 403 insufficient_scope', async () => {
    for (const scope of ALL.slice(0, 3)) {
      const { api_key } = await mintKey(w.t, w.owner.cookie, { scopes: ALL.filter((s) => s !== scope) });
      const api = webhookApi(w.t, asKey(api_key), w.site.site_id);
      for (const [name, needed, call] of calls(api)) {
        if (needed !== scope) continue;
        const response = await call();
        expect(response.statusCode, name).toBe(403);
        expect(response.json()).toEqual({
          error: 'insufficient_scope',
          required_scope: scope,
          message: expect.any(String),
        });
      }
    }
  });

  it('answers 401 unauthorized without a valid credential', async () => {
    for (const headers of [{}, { authorization: `Bearer tk_live_${'x'.repeat(40)}` }]) {
      for (const [name, , call] of calls(webhookApi(w.t, headers as never, w.site.site_id))) {
        const response = await call();
        expect(response.statusCode, name).toBe(401);
        expect(response.json()).toMatchObject({ error: 'unauthorized' });
      }
    }
  });

  it('answers 403 Forbidden for a site the credential cannot reach', async () => {
    const rival = await addOtherAccount(w.t);
    const elsewhere = await addSite(w.t, asKey(w.owner.apiKey), 'elsewhere.example');
    const narrow = await mintKey(w.t, w.owner.cookie, { scopes: ALL, site_id: elsewhere.site_id });
    const cases = [
      webhookApi(w.t, asKey(rival.apiKey), w.site.site_id),
      webhookApi(w.t, asSession(rival.cookie), w.siteId),
      webhookApi(w.t, asKey(narrow.api_key), w.site.site_id),
      // A key never names a site by its internal UUID.
      webhookApi(w.t, asKey(w.owner.apiKey), w.siteId),
      webhookApi(w.t, asKey(w.owner.apiKey), `ttid_${'Z'.repeat(22)}`),
    ];
    for (const api of cases) {
      for (const [name, , call] of calls(api)) {
        const response = await call();
        expect(response.statusCode, name).toBe(403);
        expect(response.json()).toEqual({ error: 'Forbidden' });
      }
    }
    const listed = await webhookApi(w.t, asSession(w.owner.cookie), w.siteId).list();
    expect(listed.statusCode).toBe(200);
  });

  it('answers 403 Forbidden for a site inside its deletion window', async () => {
    const doomed = await insertSite(w.t, w.owner.accountId, { domain: 'doomed.example', deleted: true });
    const api = webhookApi(w.t, asSession(w.owner.cookie), doomed.id);
    for (const [name, , call] of calls(api)) {
      const response = await call();
      expect(response.statusCode, name).toBe(403);
      expect(response.json()).toEqual({ error: 'Forbidden' });
    }
  });

  it('answers 422 for a siteId that is neither a snippet key nor a UUID', async () => {
    const response = await webhookApi(w.t, asKey(w.owner.apiKey), 'nonsense').list();
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed' });
  });
});

describe('webhook targets without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  const t = useTestApp();

  it('refuses loopback, private and metadata addresses, and logs no warning', async () => {
    const site = await addSite(t, asKey(t.owner.apiKey), 'strict.example');
    const api = webhookApi(t, asKey(t.owner.apiKey), site.site_id);
    for (const url of [
      'https://127.0.0.1:8443/hook',
      'https://localhost/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://169.254.169.254/latest',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://100.64.0.1/',
      'https://[fc00::1]/',
    ]) {
      const response = await api.create({ url });
      expect(response.statusCode, url).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'url' });
    }
    expect(t.logs()).not.toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS');
  });
});
