/**
 * The tracker in Debian's Chromium against the real server: a page on a local host carries the
 * snippet, arrives from ChatGPT (utm_source only, as assistants often send no referrer),
 * navigates with the History API and fires a custom event. The stored visits, classification,
 * cookie and getVisitorId() are checked in the database.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { launchChromium } from '../test/chromium.js';
import { insertSite } from '../test/factories.js';
import { CHROME_UA } from './ingest.fixtures.js';
import { TRACKER_FILE } from './tracker.routes.js';

const PAGE_HOST = 'shop.touchtrail.test';

function servePages(apiBase: string, snippetKey: string, cookieDomain?: string): Promise<Server> {
  const attributes = cookieDomain ? ` data-cookie-domain="${cookieDomain}"` : '';
  const html = `<!doctype html><html><head><title>Shop</title>
<script>window.touchtrail=window.touchtrail||{q:[],track:function(){this.q.push(['track',[].slice.call(arguments)])},identify:function(){this.q.push(['identify',[].slice.call(arguments)])}};</script>
<script defer src="${apiBase}/t.js" data-site="${snippetKey}"${attributes}></script>
</head><body><a id="next" href="/pricing">Pricing</a></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('tracker in a real browser against the real server', () => {
  const t = useTestApp();
  let browser: Browser;
  let apiBase: string;

  beforeAll(async () => {
    if (!existsSync(TRACKER_FILE)) {
      execFileSync(
        process.execPath,
        [fileURLToPath(new URL('../../../tracker/build.mjs', import.meta.url))],
        {
          stdio: 'ignore',
        },
      );
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    apiBase = `http://127.0.0.1:${address.port}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  async function visit(cookieDomain?: string) {
    const site = await insertSite(t, t.owner.accountId, {
      domain: `${Math.random().toString(36).slice(2, 8)}.${PAGE_HOST}`,
    });
    const pages = await servePages(apiBase, site.snippet_key, cookieDomain);
    const port = (pages.address() as { port: number }).port;
    const origin = `http://${site.domain}:${port}`;
    // Headless Chromium names itself in its user agent, which the bot filter rightly drops.
    const context = await browser.newContext({ userAgent: CHROME_UA });
    const page = await context.newPage();
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    return { site, pages, origin, context, page, errors };
  }

  const waitForRows = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 400 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };

  it('records a ChatGPT arrival, an SPA navigation and a custom event', async () => {
    const { site, pages, origin, context, page, errors } = await visit();
    try {
      await page.goto(`${origin}/?utm_source=chatgpt.com`);
      await page.waitForFunction(
        () => (globalThis as unknown as PageGlobals).touchtrail?.getVisitorId?.() != null,
      );
      const visitorId = await page.evaluate(() =>
        (globalThis as unknown as PageGlobals).touchtrail.getVisitorId(),
      );
      await page.evaluate(() => (globalThis as unknown as PageGlobals).history.pushState({}, '', '/pricing'));
      await page.evaluate(() =>
        (globalThis as unknown as PageGlobals).touchtrail.track(
          'signup',
          { plan: 'pro' },
          { value: 49, currency: 'EUR' },
        ),
      );

      const db = t.database.db;
      await waitForRows(
        async () =>
          (await db.selectFrom('events').select('event_id').where('site_id', '=', site.id).execute())
            .length >= 3,
      );
      const visits = await db.selectFrom('visits').selectAll().where('site_id', '=', site.id).execute();
      expect(visits).toHaveLength(1);
      expect(visits[0]).toMatchObject({
        visitor_id: visitorId,
        source_kind: 'ai',
        session_ai_source: 'chatgpt',
        pageviews: 2,
        browser: 'Chrome',
        entry_url: `${origin}/?utm_source=chatgpt.com`,
      });
      const event = await db
        .selectFrom('events')
        .selectAll()
        .where('site_id', '=', site.id)
        .where('type', '=', 'event')
        .executeTakeFirstOrThrow();
      expect(event).toMatchObject({
        name: 'signup',
        properties: { plan: 'pro' },
        value_minor: 4900,
        currency: 'EUR',
        visit_id: visits[0]?.id,
      });

      const cookies = await context.cookies(origin);
      expect(cookies.find((cookie) => cookie.name === '_svc_vid')?.value).toBe(visitorId);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      pages.close();
    }
  });

  it('switches the cookie name and scope once a cookie domain is confirmed', async () => {
    const { site, pages, origin, context, page, errors } = await visit('touchtrail.test');
    try {
      await page.goto(`${origin}/`);
      await page.waitForFunction(
        () => (globalThis as unknown as PageGlobals).touchtrail?.getVisitorId?.() != null,
      );
      const visitorId = await page.evaluate(() =>
        (globalThis as unknown as PageGlobals).touchtrail.getVisitorId(),
      );
      const name = `_svc_vid_${site.snippet_key.slice(5, 13)}`;
      const cookie = (await context.cookies(origin)).find((candidate) => candidate.name === name);
      expect(cookie).toMatchObject({ value: visitorId, domain: '.touchtrail.test' });
      expect((await context.cookies(origin)).some((candidate) => candidate.name === '_svc_vid')).toBe(false);
      await waitForRows(
        async () =>
          (await t.database.db.selectFrom('visits').select('id').where('site_id', '=', site.id).execute())
            .length > 0,
      );
      const visits = await t.database.db
        .selectFrom('visits')
        .selectAll()
        .where('site_id', '=', site.id)
        .execute();
      expect(visits.map((v) => [v.visitor_id, v.session_ai_source])).toEqual([[visitorId, 'direct']]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      pages.close();
    }
  });

  it('serves /t.js with the collect path written in, a content ETag and 304 on revalidation', async () => {
    const first = await t.request({ method: 'GET', url: '/t.js' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/javascript/);
    expect(first.body).toContain('/v1/collect');
    expect(first.body).not.toContain('__TT_COLLECT_PATH__');
    const etag = first.headers.etag as string;
    const again = await t.request({ method: 'GET', url: '/t.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
  });
});

/** What the page exposes, as seen from test code compiled without the DOM library. */
interface PageGlobals {
  touchtrail: { getVisitorId(): string | null; track(name: string, props?: object, options?: object): void };
  history: { pushState(state: object, unused: string, url: string): void };
}
