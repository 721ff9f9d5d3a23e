/**
 * Rules of interface §2.6, §2.7, §4.3, §6, §7.3 and §8 that the other webhook suites leave
 * open: the exact fields of endpoints, deliveries and test results, the deliveries page sizes
 * and each status filter, bare 404s on test and rotate-secret, unparsable bodies, revoked and
 * expired keys, the cap of 10 counted over disabled endpoints, and private targets on update.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { addSite, asKey } from '../sites/sites.fixtures.js';
import { mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import type { TestReceiver } from './webhooks.fixtures.js';
import { useWebhookTestApp, verifyReceived, webhookApi } from './webhooks.test-app.js';

const WEBHOOK_FIELDS = [
  'created_at',
  'enabled',
  'event_types',
  'id',
  'site_id',
  'updated_at',
  'url',
  'verification_status',
];
const DELIVERY_FIELDS = [
  'attempt_count',
  'created_at',
  'dedupe_key',
  'envelope_id',
  'event_type',
  'id',
  'last_attempt_at',
  'last_error',
  'next_attempt_at',
  'payload',
  'response_status',
  'status',
  'webhook_id',
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const DAY_MS = 24 * 60 * 60 * 1000;

const keysOf = (value: object) => Object.keys(value).sort();

describe('webhook contract', () => {
  const w = useWebhookTestApp();
  let receiver: TestReceiver;
  beforeAll(async () => {
    receiver = await w.startReceiver((_request, response) => response.writeHead(200).end('pong'));
  });

  /** Delivery rows written straight to the log of `webhookId`, one millisecond apart, oldest first. */
  async function insertDeliveries(webhookId: string, statuses: readonly string[]) {
    const start = w.t.clock.now().getTime() + 1000;
    const rows = statuses.map((status, i) => ({
      site_id: w.siteId,
      id: randomUUID(),
      webhook_id: webhookId,
      event_type: 'ai_session.classified',
      envelope_id: `whd_${String(i).padStart(24, '0')}`,
      dedupe_key: randomUUID(),
      payload: '{}',
      status: status as 'pending',
      attempt_count: status === 'pending' ? 0 : 1,
      response_status: null,
      last_error: null,
      next_attempt_at: status === 'pending' || status === 'retrying' ? new Date(start + 10 * DAY_MS) : null,
      last_attempt_at: null,
      created_at: new Date(start + i),
    }));
    await w.t.database.db.insertInto('webhook_deliveries').values(rows).execute();
    return rows;
  }

  const page = async (id: string, query: string) => {
    const response = await w.api.deliveries(id, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { deliveries: { id: string; status: string }[]; next_before: string | null };
  };

  it('creates with the given event_types and answers with exactly the fields of §2.6 plus secret', async () => {
    const response = await w.api.create({ url: receiver.url, event_types: ['conversion.attributed'] });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(keysOf(created)).toEqual([...WEBHOOK_FIELDS, 'secret'].sort());
    expect(created.event_types).toEqual(['conversion.attributed']);
    expect(created.created_at).toMatch(ISO);
    expect(created.updated_at).toMatch(ISO);
  });

  it('answers PATCH with the whole updated endpoint, without the secret', async () => {
    const created = await w.api.add(receiver.url);
    w.t.clock.advance(1000);
    const response = await w.api.update(created.id, { event_types: ['conversion.attributed'] });
    expect(response.statusCode).toBe(200);
    const updated = response.json();
    expect(keysOf(updated)).toEqual(WEBHOOK_FIELDS);
    expect(updated).toMatchObject({
      id: created.id,
      site_id: w.site.site_id,
      url: created.url,
      event_types: ['conversion.attributed'],
      enabled: true,
      verification_status: 'verified',
    });
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(updated.created_at));
    expect(response.body).not.toContain(created.secret);
  });

  it('lists endpoints with exactly the fields of §2.6, and no longer lists a deleted one', async () => {
    const created = await w.api.add(receiver.url);
    const listed = await w.api.list();
    expect(listed.statusCode).toBe(200);
    const { webhooks } = listed.json() as { webhooks: { id: string }[] };
    for (const hook of webhooks) expect(keysOf(hook)).toEqual(WEBHOOK_FIELDS);
    expect(webhooks.map((hook) => hook.id)).toContain(created.id);
    expect((await w.api.remove(created.id)).statusCode).toBe(204);
    const after = (await w.api.list()).json() as { webhooks: { id: string }[] };
    expect(after.webhooks.map((hook) => hook.id)).not.toContain(created.id);
  });

  it('answers a test ping with integer status_code and latency_ms; the ping carries the internal site UUID', async () => {
    const created = await w.api.add(receiver.url);
    const response = await w.api.test(created.id);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(keysOf(result)).toEqual([
      'latency_ms',
      'ok',
      'response_snippet',
      'status_code',
      'verification_status',
    ]);
    expect(result).toMatchObject({ ok: true, status_code: 200, response_snippet: 'pong' });
    expect(Number.isInteger(result.latency_ms)).toBe(true);
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);

    const ping = receiver.requests.at(-1);
    if (!ping) throw new Error('no ping arrived');
    const body = verifyReceived(ping, created.secret);
    expect(body.type).toBe('webhook.ping');
    expect(body.data.site_id).toBe(w.siteId);
    expect(body.id).toMatch(/^whd_/);

    const { deliveries } = (await w.api.deliveries(created.id)).json();
    expect(deliveries).toHaveLength(2);
    for (const delivery of deliveries) {
      expect(keysOf(delivery)).toEqual(DELIVERY_FIELDS);
      expect(delivery).toMatchObject({
        webhook_id: created.id,
        event_type: 'webhook.ping',
        envelope_id: expect.stringMatching(/^whd_/),
        dedupe_key: expect.any(String),
        status: 'succeeded',
        attempt_count: 1,
        response_status: 200,
        last_error: null,
        next_attempt_at: null,
        last_attempt_at: expect.stringMatching(ISO),
        created_at: expect.stringMatching(ISO),
      });
    }
    expect(deliveries[0].envelope_id).toBe(body.id);
    expect(deliveries[0].payload).toBe(ping.body);
  });

  it('answers rotate-secret with exactly {id, secret}', async () => {
    const created = await w.api.add(receiver.url);
    const response = await w.api.rotate(created.id);
    expect(response.statusCode).toBe(200);
    expect(keysOf(response.json())).toEqual(['id', 'secret']);
    expect(response.json().id).toBe(created.id);
  });

  it('answers a bare 404 to test and rotate-secret for an unknown webhook id or one of another site', async () => {
    const other = await insertSite(w.t, w.owner.accountId, { domain: 'other-contract.example' });
    const theirs = await webhookApi(w.t, { cookie: w.owner.cookie }, other.id).add(receiver.url);
    const received = receiver.requests.length;
    for (const id of [randomUUID(), theirs.id]) {
      for (const response of [await w.api.test(id), await w.api.rotate(id)]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: expect.any(String) });
      }
    }
    expect(receiver.requests).toHaveLength(received);
    // The other site's endpoint still signs with its own secret.
    await webhookApi(w.t, { cookie: w.owner.cookie }, other.id).test(theirs.id);
    const ping = receiver.requests.at(-1);
    if (!ping) throw new Error('no ping arrived');
    expect(verifyReceived(ping, theirs.secret).type).toBe('webhook.ping');
  });

  it('lists 50 deliveries by default, up to 100 with limit, and 1 with limit=1', async () => {
    const created = await w.api.add(receiver.url);
    // With the creation ping: 101 deliveries.
    await insertDeliveries(created.id, Array(100).fill('succeeded'));
    const first = await page(created.id, '');
    expect(first.deliveries).toHaveLength(50);
    expect(first.next_before).toMatch(ISO);
    const second = await page(created.id, `before=${encodeURIComponent(first.next_before ?? '')}`);
    expect(second.deliveries).toHaveLength(50);
    expect(new Set([...first.deliveries, ...second.deliveries].map((d) => d.id)).size).toBe(100);

    const hundred = await page(created.id, 'limit=100');
    expect(hundred.deliveries).toHaveLength(100);
    expect(hundred.next_before).not.toBeNull();
    const rest = await page(created.id, `limit=100&before=${encodeURIComponent(hundred.next_before ?? '')}`);
    expect(rest.deliveries).toHaveLength(1);
    expect(rest.next_before).toBeNull();
    expect((await page(created.id, 'limit=1')).deliveries).toHaveLength(1);
  });

  it('filters deliveries by each status of §3.4, also across pages', async () => {
    const created = await w.api.add(receiver.url);
    const statuses = ['pending', 'retrying', 'failed', 'succeeded'] as const;
    const rows = await insertDeliveries(
      created.id,
      Array.from({ length: 12 }, (_, i) => statuses[i % 4] as string),
    );
    for (const status of statuses) {
      const expected = rows
        .filter((row) => row.status === status)
        .map((row) => row.id)
        .reverse();
      // The creation ping succeeded too, and is the oldest.
      const all = (await page(created.id, `status=${status}`)).deliveries;
      expect(all.every((d) => d.status === status)).toBe(true);
      expect(all.map((d) => d.id).slice(0, 3)).toEqual(expected);
      expect(all).toHaveLength(status === 'succeeded' ? 4 : 3);

      const head = await page(created.id, `status=${status}&limit=2`);
      expect(head.deliveries.map((d) => d.id)).toEqual(expected.slice(0, 2));
      const tail = await page(
        created.id,
        `status=${status}&limit=2&before=${encodeURIComponent(head.next_before ?? '')}`,
      );
      expect(tail.deliveries.map((d) => d.id)[0]).toBe(expected[2]);
      expect(tail.deliveries.every((d) => d.status === status)).toBe(true);
    }
  });

  it('answers 422 validation_failed to a body that is not JSON, on create and update', async () => {
    const created = await w.api.add(receiver.url);
    const base = `/v1/sites/${w.site.site_id}/webhooks`;
    for (const [method, url] of [
      ['POST', base],
      ['PATCH', `${base}/${created.id}`],
    ] as const) {
      const response = await w.t.request({
        method,
        url,
        headers: { ...asKey(w.owner.apiKey), 'content-type': 'application/json' },
        payload: '{"url": "https://',
      });
      expect(response.statusCode, `${method} ${url}`).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed' });
    }
  });

  it('counts disabled endpoints toward the 10 per site, and a deletion frees a place', async () => {
    const site = await insertSite(w.t, w.owner.accountId, { domain: 'cap-contract.example' });
    const api = webhookApi(w.t, { cookie: w.owner.cookie }, site.id);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await api.add(`${receiver.url}?n=${i}`)).id);
    for (const id of ids) expect((await api.update(id, { enabled: false })).statusCode).toBe(200);
    expect((await api.create({ url: receiver.url })).statusCode).toBe(409);
    expect((await api.remove(ids[0] as string)).statusCode).toBe(204);
    expect((await api.create({ url: receiver.url })).statusCode).toBe(201);
    expect((await api.create({ url: receiver.url })).statusCode).toBe(409);
  });

  it('answers 401 unauthorized to a revoked or an expired key on every route', async () => {
    const scopes = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'];
    const hook = await w.api.add(receiver.url);
    const revoked = await mintKey(w.t, w.owner.cookie, { scopes });
    const revoke = await w.t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${revoked.id}`,
      headers: { cookie: w.owner.cookie },
    });
    expect(revoke.statusCode).toBe(204);
    const expired = await mintKey(w.t, w.owner.cookie, {
      scopes,
      expires_at: new Date(w.t.clock.now().getTime() + 60_000).toISOString(),
    });
    w.t.clock.advance(120_000);
    const received = receiver.requests.length;
    for (const key of [revoked.api_key, expired.api_key]) {
      const api = webhookApi(w.t, asKey(key), w.site.site_id);
      for (const response of [
        await api.list(),
        await api.create({ url: receiver.url }),
        await api.update(hook.id, { enabled: false }),
        await api.deliveries(hook.id),
        await api.test(hook.id),
        await api.rotate(hook.id),
        await api.remove(hook.id),
      ]) {
        expect(response.statusCode, response.body).toBe(401);
        expect(response.json()).toMatchObject({ error: 'unauthorized' });
      }
    }
    expect(receiver.requests).toHaveLength(received);
    expect((await w.api.list()).json().webhooks.map((h: { id: string }) => h.id)).toContain(hook.id);
  });
});

describe('webhook updates without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  const t = useTestApp();

  it('refuses a loopback, private or metadata url on PATCH, leaving the endpoint as it was', async () => {
    const site = await addSite(t, asKey(t.owner.apiKey), 'strict-update.example');
    const siteUuid = (
      await t.database.db
        .selectFrom('sites')
        .select('id')
        .where('snippet_key', '=', site.site_id)
        .executeTakeFirstOrThrow()
    ).id;
    // Written straight to the table: creating one through the API would ping a public host.
    const hook = await t.database.db
      .insertInto('webhooks')
      .values({
        site_id: siteUuid,
        id: randomUUID(),
        url: 'https://hooks.example.com/in',
        event_types: ['ai_session.classified'],
        verification_status: 'verified',
        secret_sealed: 'v1:x',
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const api = webhookApi(t, asKey(t.owner.apiKey), site.site_id);
    for (const url of ['https://127.0.0.1/hook', 'https://10.0.0.8/hook', 'https://169.254.169.254/']) {
      const response = await api.update(hook.id, { url });
      expect(response.statusCode, url).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'url' });
    }
    const listed = (await api.list()).json().webhooks;
    expect(listed).toEqual([
      expect.objectContaining({ url: 'https://hooks.example.com/in', verification_status: 'verified' }),
    ]);
  });
});
