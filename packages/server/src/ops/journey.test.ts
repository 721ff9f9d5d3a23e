/**
 * One shop's day, end to end through the compiled server and its background jobs: a visitor
 * arrives from ChatGPT in Chromium, browses and signs up, the shop's backend posts the payment
 * and later a partial refund, and the owner reads goals, revenue and conversions over HTTP only.
 */
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_UA } from '../ingest/ingest.fixtures.js';
import { launchChromium } from '../test/chromium.js';
import { PROCESS_OWNER, prepareServerProcess, type ServerProcess } from '../test/server-process.js';

const PAGE_HOST = 'shop.touchtrail.test';
const JOB_DEADLINE_MS = 15_000;

interface RevenueRow {
  source: string;
  gross: number;
  refunded: number;
  net: number;
  conversions: number;
}
interface Revenue {
  currency: string;
  totals: Omit<RevenueRow, 'source'>;
  sources: RevenueRow[];
}

/** What the page exposes, as seen from test code compiled without the DOM library. */
interface PageGlobals {
  touchtrail: { getVisitorId(): string | null; track(name: string, props?: object): void };
  history: { pushState(state: object, unused: string, url: string): void };
}

function serveShop(apiBase: string, snippetKey: string): Promise<Server> {
  const html = `<!doctype html><html><head><title>Shop</title>
<script defer src="${apiBase}/t.js" data-site="${snippetKey}"></script>
</head><body><a href="/pricing">Pricing</a></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Calls `read` until `isDone` accepts its result or the deadline passes; returns the last result. */
async function pollUntil<T>(read: () => Promise<T>, isDone: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + JOB_DEADLINE_MS;
  let value = await read();
  while (!isDone(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

describe('a shop’s user journey', () => {
  let server: ServerProcess;
  let browser: Browser;
  let shop: Server | undefined;

  beforeAll(async () => {
    server = await prepareServerProcess('journey');
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    shop?.close();
    await server?.cleanUp();
  });

  it('credits a ChatGPT visitor’s signup and payment, and a partial refund, to ChatGPT', async () => {
    // 1. The compiled server, its owner and the shop's site (priced in euros).
    const child = await server.start();
    let exitCode: number | null = null;
    try {
      const { apiKey, snippetKey } = await server.setUpSite(PAGE_HOST);
      const base = server.base;
      const auth = { authorization: `Bearer ${apiKey}` };
      const json = { ...auth, 'content-type': 'application/json' };
      const getJson = async <T>(path: string, headers: Record<string, string> = auth) => {
        const response = await fetch(`${base}${path}`, { headers });
        expect(response.status, `GET ${path}: ${await response.clone().text()}`).toBe(200);
        return (await response.json()) as T;
      };
      const patched = await fetch(`${base}/v1/sites/${snippetKey}`, {
        method: 'PATCH',
        headers: json,
        body: JSON.stringify({ currency: 'EUR' }),
      });
      expect(patched.status, 'PATCH /v1/sites/{id} with currency EUR').toBe(200);

      // 2. The visitor arrives from ChatGPT, navigates in the page and signs up.
      shop = await serveShop(base, snippetKey);
      const origin = `http://${PAGE_HOST}:${(shop.address() as { port: number }).port}`;
      // Headless Chromium names itself in its user agent, which the bot filter rightly drops.
      const context = await browser.newContext({ userAgent: CHROME_UA });
      const page = await context.newPage();
      const pageErrors: Error[] = [];
      page.on('pageerror', (error) => pageErrors.push(error));
      let visitorId: string;
      try {
        await page.goto(`${origin}/?utm_source=chatgpt.com`);
        await page.waitForFunction(
          () => (globalThis as unknown as PageGlobals).touchtrail?.getVisitorId?.() != null,
          undefined,
          { timeout: JOB_DEADLINE_MS },
        );
        visitorId = (await page.evaluate(() =>
          (globalThis as unknown as PageGlobals).touchtrail.getVisitorId(),
        )) as string;
        await page.evaluate(() =>
          (globalThis as unknown as PageGlobals).history.pushState({}, '', '/pricing'),
        );
        await page.evaluate(() =>
          (globalThis as unknown as PageGlobals).touchtrail.track('signup', { plan: 'pro' }),
        );
        const cookies = await context.cookies(origin);
        expect(cookies.find((cookie) => cookie.name === '_svc_vid')?.value, 'visitor cookie _svc_vid').toBe(
          visitorId,
        );
        expect(pageErrors, 'errors on the shop page').toEqual([]);
      } finally {
        await context.close();
      }

      // The signup reaches the goal reports, and its visitor entered from ChatGPT on two pages.
      const site = `site_id=${snippetKey}`;
      const series = await pollUntil(
        () => getJson<{ series: { goal_name: string; total: number }[] }>(`/v1/goals/timeseries?${site}`),
        (body) => body.series.some((entry) => entry.goal_name === 'signup'),
      );
      expect(
        series.series.find((entry) => entry.goal_name === 'signup')?.total,
        'signup completions in GET /v1/goals/timeseries',
      ).toBe(1);
      const goals = await getJson<{ goals: { name: string }[] }>(`/v1/goals?${site}`);
      expect(
        goals.goals.map((goal) => goal.name),
        'signup auto-registered in GET /v1/goals',
      ).toContain('signup');
      const goalVisitors = await pollUntil(
        () =>
          getJson<{ visitors: { pageviews: number; entry: { ai_source: string } }[] }>(
            `/v1/goals/signup/visitors?${site}`,
          ),
        (body) => body.visitors[0]?.pageviews === 2,
      );
      expect(goalVisitors.visitors, 'GET /v1/goals/signup/visitors').toMatchObject([
        { pageviews: 2, entry: { ai_source: 'chatgpt' } },
      ]);

      // 3. The shop's backend records the payment with the visitor id the page read.
      const pay = async (extra: Record<string, unknown>) => {
        const response = await fetch(`${base}/v1/server/payments`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            site_id: snippetKey,
            transaction_id: 'ch_journey_1',
            provider: 'stripe',
            amount: 49.0,
            currency: 'EUR',
            visitor_id: visitorId,
            ...extra,
          }),
        });
        expect(response.status, 'POST /v1/server/payments').toBe(202);
        return ((await response.json()) as { status: string }).status;
      };
      expect(await pay({}), 'payment status').toBe('recorded');

      // 4. Once the attribution job has run, the revenue is ChatGPT's.
      const revenuePath = `/v1/revenue?${site}`;
      const chatgptOf = (revenue: Revenue) => revenue.sources.find((row) => row.source === 'chatgpt');
      const attributed = await pollUntil(
        () => getJson<Revenue>(revenuePath),
        (revenue) => (chatgptOf(revenue)?.gross ?? 0) > 0,
      );
      expect(attributed.currency, 'revenue currency').toBe('EUR');
      expect(chatgptOf(attributed), 'ChatGPT row of GET /v1/revenue after the payment').toEqual({
        source: 'chatgpt',
        gross: 49,
        refunded: 0,
        net: 49,
        conversions: 1,
        trials: 0,
        unconverted: [],
      });
      expect(attributed.totals, 'totals of GET /v1/revenue after the payment').toMatchObject({
        gross: 49,
        refunded: 0,
        net: 49,
      });

      // 5. A partial refund comes off ChatGPT's net; gross stays.
      expect(await pay({ refunded_amount: 19.5 }), 'refund status').toBe('refunded');
      const refunded = await pollUntil(
        () => getJson<Revenue>(revenuePath),
        (revenue) => (chatgptOf(revenue)?.refunded ?? 0) > 0,
      );
      expect(chatgptOf(refunded), 'ChatGPT row of GET /v1/revenue after the refund').toEqual({
        source: 'chatgpt',
        gross: 49,
        refunded: 19.5,
        net: 29.5,
        conversions: 1,
        trials: 0,
        unconverted: [],
      });
      expect(refunded.totals, 'totals of GET /v1/revenue after the refund').toMatchObject({
        gross: 49,
        refunded: 19.5,
        net: 29.5,
      });

      // 6. The owner signs in and sees both conversions credited to ChatGPT.
      const login = await fetch(`${base}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(PROCESS_OWNER),
      });
      expect(login.status, 'POST /v1/auth/login').toBe(200);
      const sessionCookie = login.headers
        .getSetCookie()
        .find((cookie) => cookie.startsWith('tt_session='))
        ?.split(';')[0];
      expect(sessionCookie, 'tt_session cookie from the login').toBeDefined();
      const session = { cookie: sessionCookie as string };
      const dashboardSites = await getJson<{ sites: { uuid: string; snippet_key: string }[] }>(
        '/v1/dashboard/sites',
        session,
      );
      const siteUuid = dashboardSites.sites.find((entry) => entry.snippet_key === snippetKey)?.uuid;
      const listing = await pollUntil(
        () =>
          getJson<{ conversions: { event_name: string; ai_source: string | null; value_cents: number }[] }>(
            `/v1/conversions?site_id=${siteUuid}`,
            session,
          ),
        (body) => body.conversions.length >= 2 && body.conversions.every((row) => row.ai_source !== null),
      );
      expect(
        listing.conversions
          .map(({ event_name, ai_source, value_cents }) => ({ event_name, ai_source, value_cents }))
          .sort((a, b) => a.event_name.localeCompare(b.event_name)),
        'GET /v1/conversions',
      ).toEqual([
        { event_name: 'payment', ai_source: 'chatgpt', value_cents: 4900 },
        { event_name: 'signup', ai_source: 'chatgpt', value_cents: 0 },
      ]);
    } finally {
      exitCode = await server.kill(child, 'SIGTERM');
    }
    expect(exitCode, 'server exit code on SIGTERM').toBe(0);
  }, 60_000);
});
