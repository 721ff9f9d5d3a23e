/**
 * "Conversions" means one thing on every surface (README, "Revenue and conversions"): a
 * conversion counts once, for the source attribution credits it to under the report's model —
 * under linear, the source with the largest share — and one with no visit in its window is
 * direct. Payments and trials are conversions, never goals.
 * The dataset: a buyer who came from Google search, then twice from ChatGPT, pays $90 from the
 * backend and signs up; a stranger with no visit pays $50. First touch credits the buyer's
 * conversions to search; linear gives ChatGPT two thirds of each, so they count for ChatGPT.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { arrive, convert } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { HOUR_MS, MINUTE_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

const WINDOW = 'from=2026-05-04&to=2026-05-04';

describe('conversions per source agree across reports', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;

  const pay = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, currency: 'USD', ...body },
    });
    expect(response.statusCode, response.body).toBe(202);
  };
  const get = async (url: string) => {
    const response = await t.request({ method: 'GET', url, headers: bearer(t.owner.apiKey) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const revenue = (model: string) =>
    get(`/v1/revenue?site_id=${site.snippet_key}&${WINDOW}&attribution_model=${model}`);
  const openAi = async (model: string) => {
    const report = await get(`/v1/crawlers?site_id=${site.snippet_key}&${WINDOW}&attribution_model=${model}`);
    return report.operators.find((entry: { operator: string }) => entry.operator === 'OpenAI');
  };
  const bySource = (body: { sources: { source: string; gross: number; conversions: number }[] }) =>
    Object.fromEntries(
      body.sources.map((row) => [row.source, { gross: row.gross, conversions: row.conversions }]),
    );

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'rule.example.com' });
    t.clock.set(new Date('2026-05-04T08:00:00Z'));
    const buyer = newVisitorId();
    await arrive(t, site, buyer, 'search');
    t.clock.advance(HOUR_MS);
    await arrive(t, site, buyer, 'chatgpt');
    t.clock.advance(HOUR_MS);
    await arrive(t, site, buyer, 'chatgpt');
    // Within the visit: the signup is no visit of its own.
    t.clock.advance(10 * MINUTE_MS);
    await pay({ transaction_id: 'pi_buyer', amount: 90, visitor_id: buyer });
    await convert(t, site, buyer, 'signup');
    await pay({ transaction_id: 'pi_stranger', amount: 50, visitor_id: newVisitorId() });
    await t.app.services.attribution.runUntilIdle();
  });

  it('under first_touch: the buyer converts for search, the stranger for direct', async () => {
    expect(bySource(await revenue('first_touch'))).toEqual({
      search: { gross: 90, conversions: 1 },
      direct: { gross: 50, conversions: 1 },
    });
    const openai = await openAi('first_touch');
    expect(openai ?? { conversions: 0, payments: 0, gross: 0 }).toMatchObject({
      conversions: 0,
      payments: 0,
      gross: 0,
    });
  });

  it('under linear: revenue is split, each conversion counts once for the largest share', async () => {
    expect(bySource(await revenue('linear'))).toEqual({
      chatgpt: { gross: 60, conversions: 1 },
      direct: { gross: 50, conversions: 1 },
      search: { gross: 30, conversions: 0 },
    });
    // The payment and the signup both count for ChatGPT; the money is its two thirds.
    expect(await openAi('linear')).toMatchObject({ conversions: 2, payments: 1, gross: 60, net: 60 });
  });

  it('lists payments as conversions but never as goals, in the registry and in the goals panel', async () => {
    const goals = await get(`/v1/goals?site_id=${site.snippet_key}`);
    expect(goals.goals.map((goal: { name: string }) => goal.name)).toEqual(['signup']);
    // The overview's goals panel asks exactly this (dashboard pages/overview/panels.ts).
    const panel = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: site.snippet_key,
        date_range: ['2026-05-04', '2026-05-04'],
        metrics: ['visitors', 'conversions'],
        dimensions: ['event:goal'],
        filters: [['is_not', 'event:goal', ['payment', 'trial']]],
      },
    });
    expect(panel.statusCode, panel.body).toBe(200);
    expect(panel.json().results).toEqual([{ dimensions: ['signup'], metrics: [1, 1] }]);
  });
});
