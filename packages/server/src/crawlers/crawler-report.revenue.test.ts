/**
 * Money in the crawler report when a payment is split over several sources: under linear and
 * time_decay the daily rollup holds fractions of a cent per source, which the report must sum
 * and convert without failing, to the cent of what GET /v1/revenue says for the same sources.
 * The dataset: one buyer arriving from ChatGPT, Perplexity and Google search, two USD payments on
 * two days (the first partly refunded on the second), one EUR payment and one in Argentine pesos
 * (no ECB rate: counted, and its money listed apart), on a USD site.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { arrive } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

const USD_PER_EURO = 1.17;
const WINDOW = 'from=2026-05-04&to=2026-05-05';

const cents = (major: number) => Math.round(major * 100) / 100;

describe('GET /v1/crawlers: revenue split over several sources', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;

  const pay = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, provider: 'stripe', ...body },
    });
    expect(response.statusCode, response.body).toBe(202);
  };
  const get = async (path: string, model: string) => {
    const response = await t.request({
      method: 'GET',
      url: `${path}?site_id=${site.snippet_key}&${WINDOW}&attribution_model=${model}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const operator = (report: { operators: { operator: string }[] }, name: string) =>
    report.operators.find((entry) => entry.operator === name);

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'split.example.com' });
    await t.database.db
      .insertInto('exchange_rates')
      .values({ day: '2026-05-01', currency: 'USD', per_euro: USD_PER_EURO })
      .execute();
    t.clock.set(new Date('2026-05-04T08:00:00Z'));
    const buyer = newVisitorId();
    await arrive(t, site, buyer, 'chatgpt');
    t.clock.advance(HOUR_MS);
    await arrive(t, site, buyer, 'perplexity');
    t.clock.advance(HOUR_MS);
    await arrive(t, site, buyer, 'search');
    t.clock.advance(HOUR_MS);
    const usd = { currency: 'USD', visitor_id: buyer };
    await pay({ ...usd, transaction_id: 'pi_1', amount: 100 });
    await pay({ currency: 'EUR', visitor_id: buyer, transaction_id: 'pi_eur', amount: 100 });
    await t.app.services.attribution.runUntilIdle();
    t.clock.advance(DAY_MS);
    await pay({ ...usd, transaction_id: 'pi_2', amount: 100 });
    await pay({ currency: 'ARS', visitor_id: buyer, transaction_id: 'pi_ars', amount: 300 });
    await t.app.services.attribution.runUntilIdle();
    await pay({ ...usd, transaction_id: 'pi_1', amount: 100, refunded_amount: 10 });
  });

  it('sums a third of each payment per assistant exactly and rounds once (linear)', async () => {
    const report = await get('/v1/crawlers', 'linear');
    // Each payment and the refund are split in thirds between chatgpt, perplexity and search.
    // The EUR third is rounded to the cent of its own currency before its day's conversion.
    const usdGross = (2 * 100) / 3;
    const usdRefunded = 10 / 3;
    const eurGross = cents(cents(100 / 3) * USD_PER_EURO);
    // The pesos have no rate: their third is counted and listed apart, in pesos.
    const expected = {
      gross: cents(usdGross + eurGross),
      refunded: cents(usdRefunded),
      net: cents(usdGross - usdRefunded + eurGross),
      unconverted_revenue_days: 1,
      unconverted: [{ currency: 'ARS', gross: 100, refunded: 0, net: 100 }],
    };
    expect(expected).toMatchObject({ gross: 105.67, refunded: 3.33, net: 102.33 });
    // Each payment counts once, for its largest share: three equal thirds tie, and the tie goes
    // to the first source by name (chatgpt), as the conversion listing breaks it.
    expect(operator(report, 'OpenAI')).toMatchObject({ assistant_visits: 1, payments: 4, ...expected });
    expect(operator(report, 'Perplexity')).toMatchObject({ assistant_visits: 1, payments: 0, ...expected });
  });

  it.each(['linear', 'time_decay'])(
    'agrees with GET /v1/revenue for the same sources (%s)',
    async (model) => {
      const [report, revenue] = await Promise.all([get('/v1/crawlers', model), get('/v1/revenue', model)]);
      expect(revenue.unconverted).toEqual([{ currency: 'ARS', gross: 300, refunded: 0, net: 300 }]);
      for (const [name, source] of [
        ['OpenAI', 'chatgpt'],
        ['Perplexity', 'perplexity'],
      ] as const) {
        const credited = revenue.sources.find((entry: { source: string }) => entry.source === source);
        expect(credited.gross % 1).not.toBe(0);
        expect(credited.conversions % 1).toBe(0);
        expect(operator(report, name)).toMatchObject({
          gross: credited.gross,
          refunded: credited.refunded,
          net: credited.net,
          payments: Number(credited.conversions.toFixed(4)),
          unconverted: credited.unconverted,
        });
      }
    },
  );
});
