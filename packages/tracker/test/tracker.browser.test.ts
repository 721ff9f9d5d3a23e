/**
 * The built t.js in Debian's Chromium, part 1: the pageview payload and its transport, the
 * visitor cookie in both modes, getVisitorId(), prerendering, and single-page navigation.
 */
import { describe, expect, test } from 'vitest';
import { ID_RE, useBrowserSession } from './browser-session';
import { newSiteKey, sleep, waitFor } from './harness';

const DAY_S = 86_400;
const s = useBrowserSession();

describe('pageview', () => {
  test('sends the pageview payload as text/plain without preflight or cookies, and sets _svc_vid', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    await s.openPage();
    await s.page.goto(url, { referer: 'https://chatgpt.com/c/123' });
    const [pageview] = await s.harness.arrived(site, 'pageview');

    expect(Object.keys(pageview ?? {}).sort()).toEqual(['eid', 'ref', 'site', 'sw', 'type', 'url', 'vid']);
    expect(pageview).toMatchObject({ type: 'pageview', site, url, ref: 'https://chatgpt.com/c/123' });
    expect(pageview?.vid).toMatch(ID_RE);
    expect(pageview?.eid).toMatch(ID_RE);
    expect(pageview?.eid).not.toBe(pageview?.vid);
    expect(pageview?.sw).toBe(await s.page.evaluate(() => screen.width));
    expect(Number.isInteger(pageview?.sw)).toBe(true);

    const collect = s.harness.requests.filter((r) => r.payload.site === site);
    expect(collect.map((r) => r.method)).toEqual(['POST']);
    expect(collect[0]?.headers['content-type']).toMatch(/^text\/plain/);
    expect(collect[0]?.headers.origin).toBe(s.harness.siteOrigin);
    expect(collect[0]?.headers['sec-fetch-mode']).toBe('cors');
    expect(collect[0]?.headers.cookie).toBeUndefined();
    expect(s.harness.requests.some((r) => r.method === 'OPTIONS')).toBe(false);

    const cookies = await s.context.cookies();
    expect(cookies).toHaveLength(1);
    const [cookie] = cookies;
    expect(cookie).toMatchObject({
      name: '_svc_vid',
      value: pageview?.vid,
      domain: 'www.touchtrail.test',
      path: '/',
      sameSite: 'Lax',
      httpOnly: false,
      secure: false,
    });
    expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000 + 396 * DAY_S - 60);
    expect(cookie?.expires).toBeLessThan(Date.now() / 1000 + 396 * DAY_S + 60);
  });

  test('with data-cookie-domain: _svc_vid_<8 chars> on that domain, other names ignored, nothing sent same-site', async () => {
    const site = newSiteKey();
    const name = `_svc_vid_${site.slice(5, 13)}`;
    const ingestOrigin = `http://ingest.touchtrail.test:${s.harness.port}`;
    const url = s.harness.addPage({ site, cookieDomain: 'touchtrail.test', scriptOrigin: ingestOrigin });
    await s.openPage();
    const decoys = [
      { name: '_svc_vid', value: 'A'.repeat(22) },
      { name: `${name}x`, value: 'B'.repeat(22) },
      { name: name.slice(0, -1), value: 'C'.repeat(22) },
    ];
    await s.context.addCookies(decoys.map((c) => ({ ...c, domain: 'www.touchtrail.test', path: '/' })));
    await s.page.goto(url);
    const [pageview] = await s.harness.arrived(site, 'pageview');

    expect(pageview?.vid).toMatch(ID_RE);
    expect(decoys.map((c) => c.value)).not.toContain(pageview?.vid);
    const cookie = (await s.context.cookies()).find((c) => c.name === name);
    expect(cookie).toMatchObject({
      value: pageview?.vid,
      domain: '.touchtrail.test',
      path: '/',
      sameSite: 'Lax',
    });
    // The ingest host is inside the cookie's domain: only credentials: 'omit' keeps it out.
    const [request] = s.harness.requests.filter((r) => r.payload.site === site);
    expect(request?.headers.origin).toBe(s.harness.siteOrigin);
    expect(request?.headers.cookie).toBeUndefined();
  });

  test('keeps an existing visitor id and refreshes its expiry', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    await s.openPage();
    const existing = 'Zx9_-abcdefghijklmnopq';
    const inOneHour = Math.round(Date.now() / 1000) + 3600;
    await s.context.addCookies([
      { name: '_svc_vid', value: existing, domain: 'www.touchtrail.test', path: '/', expires: inOneHour },
    ]);
    await s.page.goto(url);
    const [pageview] = await s.harness.arrived(site, 'pageview');
    expect(pageview?.vid).toBe(existing);
    const [cookie] = await s.context.cookies();
    expect(cookie?.value).toBe(existing);
    expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000 + 395 * DAY_S);
  });

  test('getVisitorId() is null until the first pageview is answered, then the cookie value', async () => {
    const site = newSiteKey();
    s.harness.slowSites.add(site);
    const url = s.harness.addPage({ site });
    await s.openPage();
    await s.page.goto(url);
    expect(await s.page.evaluate(() => typeof window.touchtrail?.getVisitorId)).toBe('function');
    const [pageview] = await s.harness.arrived(site, 'pageview');
    expect(await s.visitorId()).toBeNull(); // the server holds its answer back
    const id = await waitFor(s.visitorId);
    expect(id).toBe(pageview?.vid);
    expect((await s.context.cookies()).find((c) => c.name === '_svc_vid')?.value).toBe(id);
  });

  test('waits for prerenderingchange before doing anything', async () => {
    const site = newSiteKey();
    const head = `<script>Object.defineProperty(document, 'prerendering', { value: true, configurable: true });</script>`;
    const url = s.harness.addPage({ site, head });
    await s.openPage();
    await s.page.goto(url);
    await sleep(400);
    expect(s.harness.payloads(site)).toEqual([]);
    expect(await s.context.cookies()).toEqual([]);
    await s.page.evaluate(() => {
      Object.defineProperty(document, 'prerendering', { value: false, configurable: true });
      document.dispatchEvent(new Event('prerenderingchange'));
    });
    await s.harness.arrived(site, 'pageview', 1);
  });

  test('finds its tag without document.currentScript, and runs once when included twice', async () => {
    const site = newSiteKey();
    const src = `${s.harness.ingestOrigin}/t.js`;
    const scriptTag = `<script type="module" src="${src}" data-site="${site}"></script><script defer src="${src}" data-site="${site}"></script>`;
    const url = s.harness.addPage({ site, scriptTag });
    await s.openPage();
    await s.page.goto(url);
    await s.harness.arrived(site, 'pageview', 1);
    await sleep(300);
    expect(s.harness.payloads(site, 'pageview')).toHaveLength(1);
  });
});

describe('single-page navigation', () => {
  test('pushState and popstate send pageviews with the previous URL as ref; hash-only changes do not', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    await s.openPage();
    await s.page.goto(url, { referer: 'https://www.google.com/' });
    await s.harness.arrived(site, 'pageview', 1);
    await sleep(1100); // engaged long enough for the first page's time to be reported on leaving it

    const second = url.replace(/start$/, 'second?plan=pro');
    await s.page.evaluate((next) => history.pushState({}, '', next), second);
    await s.harness.arrived(site, 'pageview', 2);
    await s.page.evaluate(() => {
      history.replaceState({ updated: true }, '');
      history.pushState({}, '', '#pricing');
    });
    await s.page.evaluate(() => history.back()); // back to /second?plan=pro: same path and query
    await sleep(200);
    await s.page.evaluate(() => history.back()); // back to /start
    await s.harness.arrived(site, 'pageview', 3);
    await sleep(300);

    const pageviews = s.harness.payloads(site, 'pageview');
    expect(pageviews.map((p) => [p.url, p.ref])).toEqual([
      [url, 'https://www.google.com/'],
      [second, url],
      [url, second],
    ]);
    expect(new Set(pageviews.map((p) => p.vid)).size).toBe(1);
    expect(new Set(pageviews.map((p) => p.eid)).size).toBe(3);
    const [engagement] = await s.harness.arrived(site, 'engagement');
    expect(engagement).toMatchObject({ url, vid: pageviews[0]?.vid });
    expect(engagement?.engaged_ms).toBeGreaterThanOrEqual(1100);
  });
});
