/**
 * Revenue in other currencies than the site's, through the front doors: a USD site (the default)
 * takes payments in euros, yen and Argentine pesos (no ECB rate) from two sources. Before any
 * rate is stored, each source row lists its own unconverted money instead of reading 0; once the
 * packaged ECB snapshot is loaded as the server does at start, with no refresh ever run, euros
 * and yen convert and only the pesos stay aside.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { arrive } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { loadRatesSnapshot } from '../rates/rates-snapshot.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

const money = (currency: string, gross: number, refunded = 0) => ({
  currency,
  gross,
  refunded,
  net: gross - refunded,
});

describe('revenue in other currencies', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;

  const pay = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, provider: 'shop', ...body },
    });
    expect(response.statusCode, response.body).toBe(202);
  };
  const report = async () => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/revenue?site_id=${site.snippet_key}&from=2026-04-11&to=2026-04-11`,
      headers: bearer(t.owner.apiKey),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    // The site keeps the default currency, USD.
    site = await insertSite(t, t.owner.accountId);
    // A Saturday: the ECB publishes no rate, so Friday 2026-04-10's applies.
    t.clock.set(new Date('2026-04-11T09:00:00Z'));
    const [fromChat, fromSearch] = [newVisitorId(), newVisitorId()];
    await arrive(t, site, fromChat, 'chatgpt');
    await arrive(t, site, fromSearch, 'search');
    await pay({ transaction_id: 'eur-1', amount: 100, currency: 'eur', visitor_id: fromChat });
    await pay({ transaction_id: 'jpy-1', amount: 10000, currency: 'JPY', visitor_id: fromChat });
    await pay({ transaction_id: 'jpy-1', amount: 10000, currency: 'JPY', refunded_amount: 4000 });
    await pay({ transaction_id: 'ars-1', amount: 25000.5, currency: 'ARS', visitor_id: fromSearch });
    await t.app.services.attribution.runUntilIdle();
  });

  it('lists each source’s unconverted money by currency while no rate is stored', async () => {
    const body = await report();
    expect(body.currency).toBe('USD');
    const nothing = { gross: 0, refunded: 0, net: 0 };
    const chatgpt = {
      source: 'chatgpt',
      ...nothing,
      conversions: 2,
      trials: 0,
      unconverted: [money('EUR', 100), money('JPY', 10000, 4000)],
    };
    const search = {
      source: 'search',
      ...nothing,
      conversions: 1,
      trials: 0,
      unconverted: [money('ARS', 25000.5)],
    };
    expect(body.totals).toEqual({ ...nothing, conversions: 3, trials: 0 });
    expect(body.sources).toEqual([chatgpt, search]);
    expect(body.days).toEqual([
      {
        date: '2026-04-11',
        ...nothing,
        conversions: 3,
        trials: 0,
        unconverted: [money('ARS', 25000.5), money('EUR', 100), money('JPY', 10000, 4000)],
        sources: [chatgpt, search],
      },
    ]);
    expect(body.unconverted).toEqual(body.days[0].unconverted);
  });

  it('converts with the packaged snapshot, loaded as at start, and no refresh ever run', async () => {
    const load = await loadRatesSnapshot({ db: t.database.db, log: t.app.log });
    expect(load).toMatchObject({ days: 6983, lastDay: '2026-04-13' });
    expect(t.logs().match(/packaged ECB snapshot/g)).toHaveLength(1);

    // 2026-04-10: 1.1711 USD and 186.43 JPY per euro. 100 EUR = 117.11 USD; 10,000 JPY =
    // 62.817… USD, less 4,000 JPY refunded = 25.126… USD; net summed before rounding.
    const chatgpt = {
      source: 'chatgpt',
      gross: 179.93,
      refunded: 25.13,
      net: 154.8,
      conversions: 2,
      trials: 0,
      unconverted: [],
    };
    const search = {
      source: 'search',
      gross: 0,
      refunded: 0,
      net: 0,
      conversions: 1,
      trials: 0,
      unconverted: [money('ARS', 25000.5)],
    };
    const body = await report();
    expect(body.totals).toEqual({ gross: 179.93, refunded: 25.13, net: 154.8, conversions: 3, trials: 0 });
    expect(body.sources).toEqual([chatgpt, search]);
    expect(body.days[0]).toMatchObject({ gross: 179.93, unconverted: [money('ARS', 25000.5)] });
    expect(body.unconverted).toEqual([money('ARS', 25000.5)]);
  });
});
