import { beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../lib/clock.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { newTransactionId, postPayment, storedRows } from './payments.fixtures.js';

describe('POST /v1/server/payments: refusals (§7.4)', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
  });

  const valid = () => ({
    site_id: site.snippet_key,
    transaction_id: newTransactionId(),
    amount: 10,
    currency: 'USD',
  });
  const hoursAhead = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR_MS).toISOString();

  it.each([
    ['amount negative', { amount: -0.01 }, 'amount'],
    ['amount above 1e12', { amount: 1_000_000_000_000.01 }, 'amount'],
    ['amount as text', { amount: '10' }, 'amount'],
    ['amount missing', { amount: undefined }, 'amount'],
    ['refunded_amount zero', { refunded_amount: 0 }, 'refunded_amount'],
    ['refunded_amount negative', { refunded_amount: -5 }, 'refunded_amount'],
    ['refunded_amount above 1e12', { refunded_amount: 1_000_000_000_001 }, 'refunded_amount'],
    ['timestamp more than 24 h ahead', { timestamp: 'ahead:25' }, 'timestamp'],
    ['timestamp not ISO 8601', { timestamp: 'yesterday' }, 'timestamp'],
    ['transaction_id empty', { transaction_id: '' }, 'transaction_id'],
    ['transaction_id over 255', { transaction_id: 'x'.repeat(256) }, 'transaction_id'],
    ['transaction_id an email', { transaction_id: 'buyer@example.com' }, 'transaction_id'],
    ['transaction_id holding an email', { transaction_id: 'order:buyer@example.com:7' }, 'transaction_id'],
    ['transaction_id missing', { transaction_id: undefined }, 'transaction_id'],
    ['provider uppercase', { provider: 'Stripe' }, 'provider'],
    ['provider over 32', { provider: `p${'a'.repeat(32)}` }, 'provider'],
    ['provider starting with a digit', { provider: '2checkout' }, 'provider'],
    ['provider starting with _', { provider: '_stripe' }, 'provider'],
    ['provider empty', { provider: '' }, 'provider'],
    ['currency of two letters', { currency: 'US' }, 'currency'],
    ['currency of four letters', { currency: 'USDT' }, 'currency'],
    ['currency not ISO 4217', { currency: 'XYZ' }, 'currency'],
    ['currency missing', { currency: undefined }, 'currency'],
    ['site_id missing', { site_id: undefined }, 'site_id'],
    ['email not an email', { email: 'not-an-email' }, 'email'],
    ['visitor_id not a cookie value', { visitor_id: 'a b' }, 'visitor_id'],
    ['renewal not a boolean', { renewal: 'yes' }, 'renewal'],
  ])('answers 422 naming the field: %s', async (_cause, override, field) => {
    const body: Record<string, unknown> = { ...valid(), ...override };
    if (typeof body.timestamp === 'string' && body.timestamp.startsWith('ahead:')) {
      body.timestamp = hoursAhead(Number(body.timestamp.slice(6)));
    }
    const response = await postPayment(t, t.owner.apiKey, body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      issues: [{ field, message: expect.any(String) }],
    });
  });

  it('accepts the limits themselves, lowercase currencies, backdating and null optional fields', async () => {
    const bodies = [
      { amount: 1_000_000_000_000, refunded_amount: 1_000_000_000_000 },
      { timestamp: hoursAhead(23.9) },
      { timestamp: '2019-03-01T10:00:00+02:00' },
      { transaction_id: 'x'.repeat(255) },
      { provider: `p${'a'.repeat(31)}` },
      { provider: 'lemon_squeezy-v2.1' },
      { currency: 'kwd' },
      {
        visitor_id: null,
        email: null,
        customer_id: null,
        refunded_amount: null,
        timestamp: null,
        provider: null,
      },
      { unknown_settlement_field: 12 },
    ];
    for (const override of bodies) {
      const response = await postPayment(t, t.owner.apiKey, { ...valid(), ...override });
      expect(response.statusCode, JSON.stringify(override)).toBe(202);
    }
    const stored = await storedRows(t, site.id);
    expect(stored.payments.some((p) => p.currency === 'KWD' && p.amount_minor === 10_000)).toBe(true);
    expect(stored.payments.some((p) => p.paid_at.toISOString() === '2019-03-01T08:00:00.000Z')).toBe(true);
  });

  it('answers 400 invalid JSON to a body that does not parse', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: { ...bearer(t.owner.apiKey), 'content-type': 'application/json' },
      payload: '{"site_id": "ttid_',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid JSON' });
  });

  it('answers 401 unauthorized to bad keys, wrong-site keys, other accounts, non-ttid site ids and keys without ingest:write', async () => {
    const other = await insertSite(t, t.owner.accountId);
    const rival = await insertSite(t, (await insertAccount(t)).accountId);
    const scoped = await mintKey(t, t.owner.cookie, { scopes: ['ingest:write'], site_id: site.snippet_key });
    const readOnly = await mintKey(t, t.owner.cookie, {
      scopes: ['stats:read', 'config:write', 'credentials:write'],
    });
    const cases: [Record<string, string>, string][] = [
      [{}, site.snippet_key],
      [{ authorization: 'Basic dXNlcjpwYXNz' }, site.snippet_key],
      [bearer(`tk_live_${'x'.repeat(40)}`), site.snippet_key],
      [{ cookie: t.owner.cookie }, site.snippet_key],
      [bearer(readOnly.api_key), site.snippet_key],
      [bearer(scoped.api_key), other.snippet_key],
      [bearer(t.owner.apiKey), rival.snippet_key],
      [bearer(t.owner.apiKey), site.id],
      [bearer(t.owner.apiKey), 'ttid_nope'],
      [bearer(t.owner.apiKey), `ttid_${'Z'.repeat(22)}`],
    ];
    for (const [headers, siteId] of cases) {
      const response = await t.request({
        method: 'POST',
        url: '/v1/server/payments',
        headers,
        payload: { ...valid(), site_id: siteId, transaction_id: 'never-stored' },
      });
      expect(response.statusCode, `${JSON.stringify(headers)} ${siteId}`).toBe(401);
      expect(response.json()).toEqual({ error: 'unauthorized' });
    }
    expect((await postPayment(t, scoped.api_key, valid())).statusCode).toBe(202);
    const leaked = await t.database.db
      .selectFrom('payments')
      .select('id')
      .where('transaction_id', '=', 'never-stored')
      .execute();
    expect(leaked).toEqual([]);
  });

  it('answers 429 quota_exceeded for a site scheduled for deletion, recording nothing', async () => {
    const doomed = await insertSite(t, t.owner.accountId, { deleted: true });
    const response = await postPayment(t, t.owner.apiKey, { ...valid(), site_id: doomed.snippet_key });
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({ error: 'quota_exceeded' });
    expect((await storedRows(t, doomed.id)).payments).toEqual([]);
  });
});

describe('POST /v1/server/payments: rate limit', () => {
  // Its own app: the budget is counted per process, from this file's first request on.
  const t = useTestApp({}, { owner: false });

  it('answers 429 rate_limited with Retry-After once a key spends its 6,000 a minute', async () => {
    // A key of the wrong shape is refused without a database lookup, yet counts against its budget.
    const headers = { authorization: 'Bearer flood-key', 'content-type': 'application/json' };
    const post = () => t.request({ method: 'POST', url: '/v1/server/payments', headers, payload: '{}' });
    const statuses = new Set<number>();
    for (let i = 0; i < 6000; i++) statuses.add((await post()).statusCode);
    expect([...statuses]).toEqual([401]);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  }, 120_000);
});
