/**
 * The dashboard at phone size (390×844) on a seeded shop with one €30 payment on its USD site:
 * no page scrolls sideways, the header is one row, the section tabs scroll with a fade at their
 * edge, and the tables keep their names and money. At desktop size the conversion listing shows
 * the euro amount beside the converted one with the day of its ECB rate, and warns once the
 * newest stored rate is more than seven days old; a person's page shows their euro payment the
 * same way, at both sizes.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import {
  newContext,
  ON_POSTGRES,
  PHONE,
  screenshot,
  serve,
  settled,
  useChromium,
} from './dashboard.fixtures.js';
import { type SeededShop, seedShop } from './dashboard.seed.js';

const browser = useChromium();
const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
const DAY_WITH_YEAR = new Intl.DateTimeFormat('en', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

describe.skipIf(ON_POSTGRES)('the dashboard on a phone', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  let base: string;
  let shop: SeededShop;
  const rateDay = dayOf(Date.now() - 2 * DAY_MS);

  beforeAll(async () => {
    shop = await seedShop(t, new Date());
    await t.database.db.deleteFrom('exchange_rates').execute();
    await t.database.db
      .insertInto('exchange_rates')
      .values({ day: rateDay, currency: 'USD', per_euro: 1.1683 })
      .execute();
    const payment = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: shop.site.snippet_key,
        provider: 'stripe',
        transaction_id: 'pi_euro',
        amount: 30,
        currency: 'EUR',
        email: 'euro.buyer@example.com',
      },
    });
    expect(payment.statusCode, payment.body).toBe(202);
    await t.app.services.attribution.runUntilIdle();
    base = await serve(t);
  }, 180_000);

  const open = async (path: string, viewport = PHONE) => {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie, viewport });
    const page = await context.newPage();
    await page.goto(`/sites/${shop.site.id}${path}`);
    await settled(page);
    return { context, page };
  };
  const pageWidth = (page: Page) => page.evaluate<number>('document.scrollingElement.scrollWidth');
  const visibleWithin = async (page: Page, selector: string) => {
    const boxes = await page.locator(selector).evaluateAll((cells) =>
      cells.map((cell) => {
        const box = cell.getBoundingClientRect();
        return { left: box.left, right: box.right, shown: box.width > 0 };
      }),
    );
    expect(boxes.length, selector).toBeGreaterThan(0);
    for (const box of boxes) {
      expect(box.shown, selector).toBe(true);
      expect(box.left, selector).toBeGreaterThanOrEqual(0);
      expect(box.right, selector).toBeLessThanOrEqual(PHONE.width);
    }
  };

  for (const [name, path] of [
    ['overview', ''],
    ['revenue', '/revenue'],
    ['ai-crawlers', '/ai'],
    ['goals', '/goals'],
    ['settings', '/settings'],
  ] as const) {
    it(`fits ${name} in the width, with a one-row header and sideways section tabs`, async () => {
      const { context, page } = await open(path);
      await screenshot(page, `phone-${name}`);
      expect(await pageWidth(page), 'the page scrolls sideways').toBeLessThanOrEqual(PHONE.width);
      const header = await page.locator('header.topbar').boundingBox();
      const brand = await page.locator('header.topbar .brand').boundingBox();
      // One row: no taller than its tallest item plus its padding.
      expect(header?.height ?? 0).toBeLessThan(64);
      expect(brand?.y ?? 0).toBeLessThan(20);
      const nav = page.locator('nav.site-nav');
      const scroll = await nav.evaluate((el) => ({ width: el.scrollWidth, client: el.clientWidth }));
      expect(scroll.width, 'the tabs scroll inside their row').toBeGreaterThan(scroll.client);
      // The fade: on the side with tabs out of sight (the current tab is scrolled into view).
      const hidden = await nav.evaluate((el) => ({
        before: el.scrollLeft > 1,
        after: el.scrollLeft + el.clientWidth < el.scrollWidth - 1,
      }));
      const expected = hidden.before && hidden.after ? 'both' : hidden.before ? 'before' : 'after';
      expect(await page.locator('.site-nav-frame').getAttribute('data-more')).toBe(expected);
      // The current section is in sight.
      const current = await nav.locator('[aria-current="page"]').boundingBox();
      expect((current?.x ?? -1) >= 0 && (current?.x ?? 0) + (current?.width ?? 0) <= PHONE.width).toBe(true);
      await context.close();
    });
  }

  it('keeps the source names and money of the revenue tables readable', async () => {
    const { context, page } = await open('/revenue');
    await screenshot(page, 'phone-revenue-tables');
    const sources = page.getByRole('table', { name: 'Revenue by source' });
    await visibleWithin(page, 'table.bars td.label');
    for (const column of ['Paid', 'Net'])
      expect(await sources.getByRole('columnheader', { name: column }).isVisible()).toBe(true);
    const listing = page.getByRole('table', { name: 'Conversions, newest first' });
    for (const column of ['Event', 'Credited to', 'Value'])
      expect(await listing.getByRole('columnheader', { name: column }).isVisible()).toBe(true);
    await visibleWithin(page, 'table.data td.num');
    expect(await listing.getByText('€30.00').first().isVisible()).toBe(true);
    await context.close();
  });

  it('keeps the revenue column of the crawler tables', async () => {
    const { context, page } = await open('/ai');
    const headers = page.getByRole('columnheader', { name: /revenue/i });
    expect(await headers.count()).toBeGreaterThan(0);
    for (const header of await headers.all()) {
      const box = await header.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await context.close();
  });

  it('shows a person’s euro payment beside its dollars and rate day, at desktop and phone width', async () => {
    const vid = newVisitorId();
    const arrived = await collect(
      t,
      pageview(shop.site.snippet_key, vid, 'https://shop.example.com/pricing'),
    );
    expect(arrived.statusCode).toBe(202);
    const paid = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: shop.site.snippet_key,
        provider: 'stripe',
        transaction_id: 'pi_euro_person',
        amount: 40,
        currency: 'EUR',
        visitor_id: vid,
      },
    });
    expect(paid.statusCode, paid.body).toBe(202);
    await t.app.services.attribution.runUntilIdle();
    const visit = await t.database.db
      .selectFrom('visits')
      .select('id')
      .where('visitor_id', '=', vid)
      .executeTakeFirstOrThrow();
    const sessions = await t.request({
      method: 'GET',
      url: `/v1/sessions?site_id=${shop.site.snippet_key}&limit=100`,
      headers: bearer(t.owner.apiKey),
    });
    const handle = (sessions.json().sessions as { id: string; visitor: string }[]).find(
      (session) => session.id === visit.id,
    )?.visitor;
    expect(handle, 'the buyer’s visit among the newest sessions').toBeDefined();

    // 40 EUR at 1.1683 USD per euro.
    const rate = `ECB ${DAY_WITH_YEAR.format(new Date(`${rateDay}T00:00:00Z`))}`;
    for (const [name, viewport] of [
      ['person-currencies', { width: 1280, height: 900 }],
      ['phone-person-currencies', PHONE],
    ] as const) {
      const { context, page } = await open(`/people/${encodeURIComponent(handle ?? '')}`, viewport);
      const payment = page.locator('.trail li.conversion').filter({ hasText: 'Converted: payment' });
      await expect.poll(() => payment.count()).toBe(1);
      const money = payment.locator('.converted');
      expect(await money.textContent()).toBe(`$46.73€40.00${rate}`);
      const box = await money.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width, 'the amounts are in sight').toBe(true);
      expect(await pageWidth(page), 'the page scrolls sideways').toBeLessThanOrEqual(viewport.width);
      await screenshot(page, name);
      await context.close();
    }
  });

  it('shows a payment in its own currency beside the converted amount, with the rate day', async () => {
    const { context, page } = await open('/revenue', { width: 1280, height: 900 });
    const row = page.getByRole('row').filter({ hasText: '€30.00' });
    await expect.poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('$35.05');
    expect(text).toContain(`€30.00ECB ${DAY_WITH_YEAR.format(new Date(`${rateDay}T00:00:00Z`))}`);
    expect(await page.getByText(/converted to USD at the European Central Bank rate/).isVisible()).toBe(true);
    expect(await page.getByText(/Exchange rates are out of date/).count()).toBe(0);
    await screenshot(page, 'revenue-currencies');
    await context.close();

    // An offline server: its newest rate is ten days old.
    await t.database.db.deleteFrom('exchange_rates').execute();
    await t.database.db
      .insertInto('exchange_rates')
      .values({ day: dayOf(Date.now() - 10 * DAY_MS), currency: 'USD', per_euro: 1.1683 })
      .execute();
    const stale = await open('/revenue', { width: 1280, height: 900 });
    await expect.poll(() => stale.page.getByText(/Exchange rates are out of date/).count()).toBe(1);
    await screenshot(stale.page, 'revenue-stale-rates');
    await stale.context.close();
  });

  it('lists a person’s refunds with their payments, under the Goals tab', async () => {
    const get = async (url: string) =>
      (await t.request({ method: 'GET', url, headers: bearer(t.owner.apiKey) })).json();
    const window = `site_id=${shop.site.snippet_key}&from=${dayOf(Date.now() - 27 * DAY_MS)}&to=${dayOf(Date.now())}`;
    let refunded: string | undefined;
    let before = '';
    while (!refunded) {
      const { sessions, next_before } = await get(`/v1/sessions?${window}&limit=100${before}`);
      for (const session of sessions as { visitor: string }[]) {
        const person = await get(`/v1/visitors/${encodeURIComponent(session.visitor)}?${window}`);
        if (person.refunds?.length) refunded = session.visitor;
        if (refunded) break;
      }
      if (!next_before) break;
      before = `&before=${encodeURIComponent(next_before)}`;
    }
    expect(refunded, 'a seeded buyer with a refund').toBeDefined();
    const { context, page } = await open(`/people/${encodeURIComponent(refunded ?? '')}?range=30d`, {
      width: 1280,
      height: 900,
    });
    expect(await page.getByRole('link', { name: 'Goals', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    await expect
      .poll(() => page.getByText(/^Refunded: \$[\d.]+ of the \$[\d.]+ payment$/).count())
      .toBeGreaterThan(0);
    await screenshot(page, 'person-refunds');
    await context.close();
  });
});
