/**
 * Endpoint management through HTTP (interface §4.3, §3.3): creation with its real ping,
 * listing without secrets, updates, deletion with the log, the URL rules and the cap of 10.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { insertSite } from '../test/factories.js';
import { answer, type TestReceiver } from './webhooks.fixtures.js';
import { deliveryRows, useWebhookTestApp, verifyReceived, webhookApi } from './webhooks.test-app.js';

describe('webhook endpoints', () => {
  const w = useWebhookTestApp();
  let ok: TestReceiver;
  let broken: TestReceiver;
  beforeAll(async () => {
    ok = await w.startReceiver();
    broken = await w.startReceiver(answer(500, 'nope'));
  });

  it('creates an endpoint, pings it for real and returns the secret once', async () => {
    const response = await w.api.create({ url: ok.url });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      id: expect.any(String),
      site_id: w.site.site_id,
      url: ok.url,
      event_types: ['ai_session.classified'],
      enabled: true,
      verification_status: 'verified',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const ping = ok.requests.at(-1);
    if (!ping) throw new Error('no ping arrived');
    const body = verifyReceived(ping, created.secret);
    expect(body).toEqual({
      type: 'webhook.ping',
      id: ping.headers['webhook-id'],
      created_at: expect.any(String),
      data: { site_id: w.siteId, webhook_id: created.id },
    });
    expect(body.id).toMatch(/^whd_[0-9A-Za-z]{24}$/);

    const log = (await w.api.deliveries(created.id)).json();
    expect(log).toEqual({
      deliveries: [
        expect.objectContaining({
          event_type: 'webhook.ping',
          envelope_id: body.id,
          status: 'succeeded',
          attempt_count: 1,
          response_status: 204,
          next_attempt_at: null,
          payload: ping.body,
        }),
      ],
      next_before: null,
    });
    const listed = (await w.api.list()).json();
    expect(listed.webhooks.find((hook: { id: string }) => hook.id === created.id)).not.toHaveProperty(
      'secret',
    );
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(w.t.logs()).not.toContain(created.secret);
  });

  it('still creates an endpoint whose ping fails, as unverified; the ping is never retried', async () => {
    const created = await w.api.add(broken.url, ['conversion.attributed', 'ai_session.classified']);
    expect(created.verification_status).toBe('unverified');
    w.t.clock.advance(24 * 60 * 60 * 1000);
    await w.t.app.services.webhooks.runDeliveriesOnce();
    const [ping, ...rest] = await deliveryRows(w.t, created.id);
    expect(rest).toEqual([]);
    expect(ping).toMatchObject({
      event_type: 'webhook.ping',
      status: 'failed',
      attempt_count: 1,
      response_status: 500,
      last_error: 'HTTP 500: nope',
    });
  });

  it('refuses bad URLs and bodies with 422 validation_failed', async () => {
    const cases: [object, string][] = [
      [{ url: 'http://hooks.example.com/' }, 'url'],
      [{ url: 'https://user:pw@hooks.example.com/' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{}, 'url'],
      [{ url: ok.url, event_types: ['page.viewed'] }, 'event_types.0'],
      [{ url: ok.url, event_types: [] }, 'event_types'],
      [{ url: ok.url, extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const response = await w.api.create(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    }
  });

  it('updates url, event_types and enabled; a new url is unverified again', async () => {
    const created = await w.api.add(ok.url);
    const disabled = await w.api.update(created.id, {
      enabled: false,
      event_types: ['conversion.attributed'],
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({
      enabled: false,
      event_types: ['conversion.attributed'],
      verification_status: 'verified',
    });
    const moved = (await w.api.update(created.id, { url: ok.urlWithHost('localhost') })).json();
    expect(moved).toMatchObject({ url: ok.urlWithHost('localhost'), verification_status: 'unverified' });
    const empty = await w.api.update(created.id, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ error: 'validation_failed' });
    const badUrl = await w.api.update(created.id, { url: 'http://x.example/' });
    expect(badUrl.json()).toMatchObject({ error: 'validation_failed', field: 'url' });
  });

  it('deletes the endpoint and its delivery log at once', async () => {
    const created = await w.api.add(ok.url);
    expect(await deliveryRows(w.t, created.id)).toHaveLength(1);
    const response = await w.api.remove(created.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await deliveryRows(w.t, created.id)).toEqual([]);
    const again = await w.api.remove(created.id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ statusCode: 404, message: 'Webhook not found' });
  });

  it('answers a bare 404 for an unknown endpoint id or one of another site', async () => {
    const other = await insertSite(w.t, w.owner.accountId, { domain: 'other.example' });
    const otherHook = await w.t.database.db
      .insertInto('webhooks')
      .values({
        site_id: other.id,
        id: crypto.randomUUID(),
        url: ok.url,
        event_types: ['ai_session.classified'],
        verification_status: 'unverified',
        secret_sealed: 'v1:x',
        created_at: new Date(),
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const id of [crypto.randomUUID(), otherHook.id]) {
      for (const response of [await w.api.update(id, { enabled: true }), await w.api.deliveries(id)]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).not.toHaveProperty('error');
      }
    }
    const malformed = await w.api.deliveries('not-a-uuid');
    expect(malformed.statusCode).toBe(422);
  });

  it('allows at most 10 endpoints per site', async () => {
    const site = await insertSite(w.t, w.owner.accountId, { domain: 'cap.example' });
    const api = webhookApi(w.t, { cookie: w.owner.cookie }, site.id);
    for (let i = 0; i < 10; i++) await api.add(`${ok.url}?n=${i}`);
    const eleventh = await api.create({ url: ok.url });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json()).toMatchObject({ error: 'conflict', code: 'webhook_limit_reached' });
    expect((await api.list()).json().webhooks).toHaveLength(10);
  });

  it('warns at start that private targets are allowed', () => {
    expect(w.t.logs()).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
  });
});
