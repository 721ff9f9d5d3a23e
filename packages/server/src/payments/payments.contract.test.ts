/**
 * Rules of interface §4.4, §7.4 and §8 for POST /v1/server/payments that the other payment
 * suites leave open: the 24-hour edge of `timestamp`, currencies without a minor unit, the
 * shortest provider, revoked and expired keys, and session matching through the front doors
 * (the email against the person's visits from before sign-in; look-back from `timestamp`).
 */
import { describe, expect, it } from 'vitest';
import { arrive, identify } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { newTransactionId, postPayment, storedRows } from './payments.fixtures.js';

describe('POST /v1/server/payments: contract', () => {
  const t = useTestApp();

  const later = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

  /** The sources credited under `model` for the payment `transactionId`, after the worker ran. */
  async function creditedSources(siteId: string, transactionId: string, model: string) {
    const db = t.database.db;
    const payment = await db
      .selectFrom('payments')
      .select('id')
      .where('site_id', '=', siteId)
      .where('transaction_id', '=', transactionId)
      .executeTakeFirstOrThrow();
    const credits = await db
      .selectFrom('attribution_credits')
      .select(['source', 'share'])
      .where('site_id', '=', siteId)
      .where('event_id', '=', `pay_${payment.id}`)
      .where('model', '=', model as 'linear')
      .orderBy('source')
      .execute();
    return credits.map((credit) => [credit.source, credit.share]);
  }

  it('accepts a timestamp exactly 24 hours ahead and refuses one a millisecond beyond', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const body = () => ({
      site_id: site.snippet_key,
      transaction_id: newTransactionId(),
      amount: 5,
      currency: 'USD',
    });
    const edge = await postPayment(t, t.owner.apiKey, { ...body(), timestamp: later(24 * HOUR_MS) });
    expect(edge.statusCode, edge.body).toBe(202);
    const beyond = await postPayment(t, t.owner.apiKey, { ...body(), timestamp: later(24 * HOUR_MS + 1) });
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json()).toEqual({
      error: 'validation_failed',
      issues: [{ field: 'timestamp', message: expect.any(String) }],
    });
    expect((await storedRows(t, site.id)).payments).toHaveLength(1);
  });

  it('takes ISK and KRW amounts as whole units: no minor unit to divide by', async () => {
    const site = await insertSite(t, t.owner.accountId);
    for (const [currency, amount] of [
      ['isk', 1500],
      ['KRW', 25_000],
    ] as const) {
      const response = await postPayment(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        transaction_id: `order-${currency}`,
        amount,
        currency,
      });
      expect(response.json()).toEqual({
        status: 'recorded',
        transaction_id: `order-${currency}`,
        event_id: expect.stringMatching(/^pay_[0-9a-f-]{36}$/),
      });
    }
    const { payments } = await storedRows(t, site.id);
    expect(payments.map((p) => [p.currency, p.amount_minor]).sort()).toEqual([
      ['ISK', 1500],
      ['KRW', 25_000],
    ]);
  });

  it('accepts a one-letter provider and answers duplicate to a trial posted twice', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const body = {
      site_id: site.snippet_key,
      transaction_id: 'trial-1',
      amount: 0,
      currency: 'EUR',
      provider: 'x',
    };
    const first = (await postPayment(t, t.owner.apiKey, body)).json();
    expect(first).toEqual({ status: 'trial', transaction_id: 'trial-1', event_id: expect.any(String) });
    expect((await postPayment(t, t.owner.apiKey, body)).json()).toEqual({
      status: 'duplicate',
      transaction_id: 'trial-1',
      event_id: first.event_id,
    });
    const { payments, events } = await storedRows(t, site.id);
    expect(payments).toEqual([expect.objectContaining({ provider: 'x', kind: 'trial' })]);
    expect(events).toHaveLength(1);
  });

  it('records an amount below the currency’s smallest unit as a trial, as it would amount 0', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const tiny = { site_id: site.snippet_key, transaction_id: 'tiny-1', amount: 0.004, currency: 'USD' };
    expect((await postPayment(t, t.owner.apiKey, tiny)).json()).toMatchObject({
      status: 'trial',
      transaction_id: 'tiny-1',
    });
    const cent = { ...tiny, transaction_id: 'cent-1', amount: 0.01 };
    expect((await postPayment(t, t.owner.apiKey, cent)).json()).toMatchObject({
      status: 'recorded',
      transaction_id: 'cent-1',
    });
    const { payments } = await storedRows(t, site.id);
    expect(
      payments.map((p: { kind: string; amount_minor: number }) => [p.kind, Number(p.amount_minor)]).sort(),
    ).toEqual([
      ['payment', 1],
      ['trial', 0],
    ]);
  });

  it('answers 401 unauthorized to a revoked or an expired key, recording nothing', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const scopes = ['ingest:write'];
    const revoked = await mintKey(t, t.owner.cookie, { scopes });
    const revoke = await t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${revoked.id}`,
      headers: { cookie: t.owner.cookie },
    });
    expect(revoke.statusCode).toBe(204);
    const expired = await mintKey(t, t.owner.cookie, { scopes, expires_at: later(60_000) });
    t.clock.advance(120_000);
    for (const key of [revoked.api_key, expired.api_key]) {
      const response = await postPayment(t, key, {
        site_id: site.snippet_key,
        transaction_id: newTransactionId(),
        amount: 10,
        currency: 'USD',
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'unauthorized' });
    }
    expect((await storedRows(t, site.id)).payments).toEqual([]);
  });

  it('matches a payment carrying only an email to that person’s visits, including those before sign-in', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'match-email.example.com' });
    const buyer = newVisitorId();
    await arrive(t, site, buyer, 'perplexity');
    t.clock.advance(HOUR_MS);
    await identify(t, site, buyer, 'buyer@example.com');
    // Someone else's visit, closer to the payment, must not count.
    t.clock.advance(HOUR_MS);
    await arrive(t, site, newVisitorId(), 'chatgpt');
    t.clock.advance(HOUR_MS);
    const posted = await postPayment(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      transaction_id: 'by-email',
      amount: 30,
      currency: 'USD',
      email: 'buyer@example.com',
    });
    expect(posted.json()).toMatchObject({ status: 'recorded', transaction_id: 'by-email' });
    await t.app.services.attribution.runUntilIdle();
    expect(await creditedSources(site.id, 'by-email', 'last_touch')).toEqual([['perplexity', 1]]);
  });

  it('looks back 30 days from the payment timestamp, not from the time of receipt', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'lookback.example.com' });
    const visitor = newVisitorId();
    const visitedAt = t.clock.now().getTime();
    await arrive(t, site, visitor, 'chatgpt');
    t.clock.advance(40 * DAY_MS);
    const base = { site_id: site.snippet_key, amount: 10, currency: 'USD', visitor_id: visitor };
    const backdated = new Date(visitedAt + 29 * DAY_MS).toISOString();
    await postPayment(t, t.owner.apiKey, { ...base, transaction_id: 'backdated', timestamp: backdated });
    const stale = new Date(visitedAt + 31 * DAY_MS).toISOString();
    await postPayment(t, t.owner.apiKey, { ...base, transaction_id: 'stale', timestamp: stale });
    await postPayment(t, t.owner.apiKey, { ...base, transaction_id: 'today' });
    await t.app.services.attribution.runUntilIdle();
    expect(await creditedSources(site.id, 'backdated', 'last_touch')).toEqual([['chatgpt', 1]]);
    expect(await creditedSources(site.id, 'stale', 'last_touch')).toEqual([]);
    expect(await creditedSources(site.id, 'today', 'last_touch')).toEqual([]);
  });
});
