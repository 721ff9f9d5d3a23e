import { beforeAll, describe, expect, it } from 'vitest';
import { arrive, recordPayment, recordRefund } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';

const figures = (gross: number, refunded: number, conversions: number, trials = 0) => ({
  gross,
  refunded,
  net: Math.round((gross - refunded) * 100) / 100,
  conversions,
  trials,
});

describe('GET /v1/revenue', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'revenue.example.com' });
    t.clock.set(new Date('2026-04-01T10:00:00Z'));
    const [buyer, other] = [newVisitorId(), newVisitorId()];
    await arrive(t, site, buyer, 'chatgpt');
    const paid = await recordPayment(t, site, { amountMinor: 10_000, currency: 'USD', visitorId: buyer });
    t.clock.set(new Date('2026-04-01T11:00:00Z'));
    await arrive(t, site, other, 'search');
    await recordPayment(t, site, { amountMinor: 5_000, currency: 'EUR', visitorId: other });
    t.clock.set(new Date('2026-04-01T12:00:00Z'));
    await recordPayment(t, site, { amountMinor: 2_000, currency: 'GBP' });
    t.clock.set(new Date('2026-04-01T13:00:00Z'));
    await recordPayment(t, site, { amountMinor: 0, kind: 'trial', visitorId: buyer });
    // The whole first payment is refunded the next morning, before the worker got to it.
    t.clock.set(new Date('2026-04-02T09:00:00Z'));
    await recordRefund(t, site, paid.id, 10_000);
    // USD per euro, published the day before the payments; no GBP rate at all.
    await t.database.db
      .insertInto('exchange_rates')
      .values({ day: '2026-03-31', currency: 'USD', per_euro: 1.2 })
      .execute();
    t.clock.set(new Date('2026-04-02T10:00:00Z'));
    await t.app.services.attribution.runUntilIdle();
  });

  const get = (query: string, headers: Record<string, string> = bearer(t.owner.apiKey)) =>
    t.request({ method: 'GET', url: `/v1/revenue?${query}`, headers });

  it('reports gross, refunded and net per day and per source in the site currency', async () => {
    const pounds = [{ currency: 'GBP', gross: 20, refunded: 0, net: 20 }];
    const response = await get(`site_id=${site.snippet_key}&from=2026-04-01&to=2026-04-02`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      site_id: site.snippet_key,
      from: '2026-04-01',
      to: '2026-04-02',
      attribution_model: 'last_touch',
      currency: 'USD',
      totals: figures(160, 100, 4, 1),
      sources: [
        { source: 'search', ...figures(60, 0, 1), unconverted: [] },
        { source: 'chatgpt', ...figures(100, 100, 2, 1), unconverted: [] },
        // No visit led to the pounds: direct. They had no rate: the row says so instead of reading 0.
        { source: 'direct', ...figures(0, 0, 1), unconverted: pounds },
      ],
      days: [
        {
          date: '2026-04-01',
          ...figures(160, 0, 4, 1),
          unconverted: pounds,
          sources: [
            { source: 'chatgpt', ...figures(100, 0, 2, 1), unconverted: [] },
            { source: 'search', ...figures(60, 0, 1), unconverted: [] },
            { source: 'direct', ...figures(0, 0, 1), unconverted: pounds },
          ],
        },
        {
          date: '2026-04-02',
          ...figures(0, 100, 0),
          unconverted: [],
          sources: [{ source: 'chatgpt', ...figures(0, 100, 0), unconverted: [] }],
        },
      ],
      unconverted: pounds,
    });
  });

  it('defaults to the last 30 days and the site’s model, and takes another model', async () => {
    await t.database.db
      .updateTable('sites')
      .set({ attribution_model: 'linear' })
      .where('id', '=', site.id)
      .execute();
    const byDefault = (await get(`site_id=${site.snippet_key}`)).json();
    expect(byDefault).toMatchObject({ from: '2026-03-04', to: '2026-04-02', attribution_model: 'linear' });
    expect(byDefault.totals).toEqual(figures(160, 100, 4, 1));
    const firstTouch = (
      await get(`site_id=${site.snippet_key}&attribution_model=first_touch&from=2026-04-02&to=2026-04-02`)
    ).json();
    expect(firstTouch.days).toEqual([
      {
        date: '2026-04-02',
        ...figures(0, 100, 0),
        unconverted: [],
        sources: [{ source: 'chatgpt', ...figures(0, 100, 0), unconverted: [] }],
      },
    ]);
    expect(firstTouch.totals.net).toBe(-100);
  });

  it('takes the internal UUID from a dashboard session, never from a key', async () => {
    const asSession = await get(`site_id=${site.id}&from=2026-04-01&to=2026-04-01`, {
      cookie: t.owner.cookie,
    });
    expect(asSession.statusCode).toBe(200);
    expect(asSession.json().totals.gross).toBe(160);
    const asKey = await get(`site_id=${site.id}`);
    expect(asKey.statusCode).toBe(404);
    expect(asKey.json()).toMatchObject({ error: 'not_found' });
  });

  it('needs stats:read and a site the credential covers', async () => {
    const noStats = await mintKey(t, t.owner.cookie, { scopes: ['ingest:write'] });
    const refused = await get(`site_id=${site.snippet_key}`, bearer(noStats.api_key));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'stats:read' });
    expect((await get(`site_id=${site.snippet_key}`, {})).statusCode).toBe(401);
    const rival = await insertAccount(t);
    const theirs = await insertSite(t, rival.accountId);
    expect((await get(`site_id=${theirs.snippet_key}`)).statusCode).toBe(404);
  });

  it.each([
    ['an unknown parameter', 'group_by=week', 'group_by'],
    ['a bad model', 'attribution_model=position', 'attribution_model'],
    ['a bad day', 'to=2026-13-01', 'to'],
    ['a window over 366 days', 'from=2025-01-01&to=2026-04-01', 'from'],
  ])('answers 422 to %s', async (_name, query, field) => {
    const response = await get(`site_id=${site.snippet_key}&${query}`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });
});
