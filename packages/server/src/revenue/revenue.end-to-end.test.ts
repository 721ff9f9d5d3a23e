/**
 * The whole money path through the front doors: a visit from an assistant, payments posted to
 * POST /v1/server/payments, the attribution worker, refunds posted before and after it ran, and
 * what GET /v1/revenue and GET /v1/conversions then say.
 */
import { describe, expect, it } from 'vitest';
import { arrive } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

describe('revenue end to end', () => {
  const t = useTestApp();

  const pay = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(202);
    return response.json().status as string;
  };

  it('credits posted payments to the visit and takes refunds off the same source, before or after attribution', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'e2e.example.com' });
    t.clock.set(new Date('2026-05-04T08:00:00Z'));
    const vid = newVisitorId();
    await arrive(t, site, vid, 'perplexity');
    t.clock.advance(HOUR_MS);
    const payment = { site_id: site.snippet_key, currency: 'usd', visitor_id: vid, provider: 'stripe' };
    expect(await pay({ ...payment, transaction_id: 'pi_a', amount: 120 })).toBe('recorded');
    expect(await pay({ ...payment, transaction_id: 'pi_b', amount: 80, renewal: true })).toBe('recorded');
    expect(await pay({ ...payment, transaction_id: 'pi_t', amount: 0 })).toBe('trial');
    // Refunded before the worker ran: the job applies it.
    expect(await pay({ ...payment, transaction_id: 'pi_a', amount: 120, refunded_amount: 20 })).toBe(
      'refunded',
    );
    await t.app.services.attribution.runUntilIdle();
    // Refunded the next day, after attribution: the payments endpoint applies it at once.
    t.clock.advance(DAY_MS);
    expect(await pay({ ...payment, transaction_id: 'pi_b', amount: 80, refunded: true })).toBe('refunded');

    const report = await t.request({
      method: 'GET',
      url: `/v1/revenue?site_id=${site.snippet_key}&from=2026-05-04&to=2026-05-05&attribution_model=linear`,
      headers: bearer(t.owner.apiKey),
    });
    expect(report.statusCode, report.body).toBe(200);
    const body = report.json();
    expect(body.totals).toEqual({ gross: 200, refunded: 100, net: 100, conversions: 3, trials: 1 });
    expect(body.days).toEqual([
      {
        date: '2026-05-04',
        ...{ gross: 200, refunded: 20, net: 180, conversions: 3, trials: 1, unconverted: [] },
        sources: [
          {
            source: 'perplexity',
            gross: 200,
            refunded: 20,
            net: 180,
            conversions: 3,
            trials: 1,
            unconverted: [],
          },
        ],
      },
      {
        date: '2026-05-05',
        ...{ gross: 0, refunded: 80, net: -80, conversions: 0, trials: 0, unconverted: [] },
        sources: [
          {
            source: 'perplexity',
            gross: 0,
            refunded: 80,
            net: -80,
            conversions: 0,
            trials: 0,
            unconverted: [],
          },
        ],
      },
    ]);

    const listing = await t.request({
      method: 'GET',
      url: `/v1/conversions?site_id=${site.id}&from=2026-05-04&to=2026-05-05`,
      headers: { cookie: t.owner.cookie },
    });
    expect(listing.statusCode, listing.body).toBe(200);
    const rows = listing.json().conversions as {
      event_name: string;
      ai_source: string;
      value_cents: number;
    }[];
    expect(rows.map((row) => [row.event_name, row.ai_source, row.value_cents]).sort()).toEqual([
      ['payment', 'perplexity', 12000],
      ['payment', 'perplexity', 8000],
      ['trial', 'perplexity', 0],
    ]);
  });
});
