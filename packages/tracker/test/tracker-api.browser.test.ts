/**
 * The built t.js in Debian's Chromium, part 2: track/identify and the pre-load queue, engaged
 * time, and the promise never to break the host page.
 */
import { describe, expect, test } from 'vitest';
import { ID_RE, useBrowserSession } from './browser-session';
import { newSiteKey, sleep, waitFor } from './harness';

const s = useBrowserSession();

describe('events and identify', () => {
  test('track() sends name, props, value and currency, omitting what is not given; identify() sends uid', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    await s.openPage();
    await s.page.goto(url);
    const vid = await waitFor(s.visitorId);
    await s.page.evaluate(() => {
      window.touchtrail?.track?.('signup', { plan: 'pro', seats: 3 }, { value: 19.5, currency: 'EUR' });
      window.touchtrail?.track?.('newsletter');
      window.touchtrail?.identify?.('Ada.Lovelace@Example.com');
    });
    await waitFor(() => s.harness.payloads(site).length === 4);

    const events = s.harness.payloads(site, 'event');
    const signup = events.find((e) => e.name === 'signup');
    expect(signup).toMatchObject({
      site,
      vid,
      url,
      props: { plan: 'pro', seats: 3 },
      value: 19.5,
      currency: 'EUR',
    });
    const newsletter = events.find((e) => e.name === 'newsletter');
    expect(Object.keys(newsletter ?? {}).sort()).toEqual(['eid', 'name', 'site', 'sw', 'type', 'url', 'vid']);
    const [identify] = s.harness.payloads(site, 'identify');
    expect(identify).toMatchObject({ site, vid, url, uid: 'Ada.Lovelace@Example.com' });
  });

  test('calls queued by the stub are replayed in order after the first pageview', async () => {
    const site = newSiteKey();
    const head = `<script>
      window.__sent = [];
      const realFetch = window.fetch;
      window.fetch = function (url, init) {
        const body = JSON.parse(init.body);
        window.__sent.push(body.type + (body.name ? ':' + body.name : ''));
        return realFetch.apply(this, arguments);
      };
      window.touchtrail = window.touchtrail || {q: [], track: function(){this.q.push(['track', [].slice.call(arguments)])}, identify: function(){this.q.push(['identify', [].slice.call(arguments)])}};
      touchtrail.track('early', { step: 1 });
      touchtrail.identify('user-42');
      touchtrail.track('early_two', undefined, { value: 5 });
    </script>`;
    const url = s.harness.addPage({ site, head });
    await s.openPage();
    await s.page.goto(url);
    await waitFor(() => s.harness.payloads(site).length === 4);
    expect(await s.page.evaluate(() => window.__sent)).toEqual([
      'pageview',
      'event:early',
      'identify',
      'event:early_two',
    ]);
    const [pageview] = s.harness.payloads(site, 'pageview');
    const events = s.harness.payloads(site, 'event');
    expect(events.find((e) => e.name === 'early')).toMatchObject({ props: { step: 1 }, vid: pageview?.vid });
    expect(events.find((e) => e.name === 'early_two')).toMatchObject({ value: 5 });
    expect(s.harness.payloads(site, 'identify')[0]).toMatchObject({ uid: 'user-42', vid: pageview?.vid });
  });
});

describe('engaged time', () => {
  test('visibilitychange to hidden sends engaged_ms with keepalive, counting only visible time, not under 1 s', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    await s.openPage();
    const startedAt = Date.now();
    await s.page.goto(url);
    await s.harness.arrived(site, 'pageview', 1);
    await s.setVisibility('hidden'); // well under a second engaged: nothing sent yet
    await sleep(500);
    await s.setVisibility('visible');
    await sleep(1100);
    await s.setVisibility('hidden');
    const [engagement] = await s.harness.arrived(site, 'engagement');
    const elapsedMs = Date.now() - startedAt;

    expect(Object.keys(engagement ?? {}).sort()).toEqual([
      'eid',
      'engaged_ms',
      'site',
      'sw',
      'type',
      'url',
      'vid',
    ]);
    expect(engagement).toMatchObject({ url });
    expect(Number.isInteger(engagement?.engaged_ms)).toBe(true);
    expect(engagement?.engaged_ms).toBeGreaterThanOrEqual(1100);
    expect(engagement?.engaged_ms).toBeLessThanOrEqual(elapsedMs - 500);
    const request = s.harness.requests.find(
      (r) => r.payload.type === 'engagement' && r.payload.site === site,
    );
    expect(request?.headers['content-type']).toMatch(/^text\/plain/);
    expect(request?.headers['sec-fetch-mode']).toBe('cors'); // fetch keepalive, which leaves cookies out
    expect(request?.headers.cookie).toBeUndefined();
    await sleep(300);
    expect(s.harness.payloads(site, 'engagement')).toHaveLength(1);
  });

  test('pagehide sends the engagement when the page is closed', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    await s.openPage();
    await s.page.goto(url);
    await s.harness.arrived(site, 'pageview', 1);
    await sleep(1100);
    await s.page.close({ runBeforeUnload: true });
    const [engagement] = await s.harness.arrived(site, 'engagement');
    expect(engagement?.engaged_ms).toBeGreaterThanOrEqual(1000);
    expect(s.harness.requests.some((r) => r.method === 'OPTIONS')).toBe(false);
  });
});

describe('never in the way', () => {
  for (const [label, site] of [
    ['missing', undefined],
    ['malformed', 'ttid_tooShort'],
  ] as const) {
    test(`a ${label} data-site sends nothing, sets no cookie and defines nothing`, async () => {
      const origin = `http://nosite-${label}.touchtrail.test:${s.harness.port}`;
      const url = s.harness.addPage({ site }, origin);
      await s.openPage();
      await s.page.goto(url);
      expect(await s.page.evaluate(() => window.__ttLoaded)).toBe(true);
      await sleep(400);
      expect(s.harness.requests.filter((r) => r.headers.origin === origin)).toEqual([]);
      expect(await s.context.cookies()).toEqual([]);
      expect(await s.page.evaluate(() => window.touchtrail)).toBeUndefined();
    });
  }

  test('throwing fetch, sendBeacon and cookies never surface an error on the page', async () => {
    const site = newSiteKey();
    const head = `<script>
      window.fetch = function () { throw new Error('fetch is broken'); };
      navigator.sendBeacon = function () { throw new Error('sendBeacon is broken'); };
      Object.defineProperty(document, 'cookie', {
        get() { throw new Error('no cookies'); },
        set() { throw new Error('no cookies'); },
      });
    </script>`;
    const url = s.harness.addPage({ site, head });
    await s.openPage();
    await s.page.goto(url);
    // Settled (by failure) counts as answered: the in-memory id is available.
    expect(await waitFor(s.visitorId)).toMatch(ID_RE);
    await s.page.evaluate(() => {
      window.touchtrail?.track?.('signup', { plan: 'pro' }, { value: 1, currency: 'EUR' });
      window.touchtrail?.identify?.('someone@example.com');
      history.pushState({}, '', '/elsewhere');
    });
    await sleep(1000);
    await s.setVisibility('hidden');
    await s.page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
    await sleep(200);
    expect(s.harness.payloads(site)).toEqual([]);
  });

  test('a collect endpoint that drops the connection is swallowed', async () => {
    const site = newSiteKey();
    s.harness.failingSites.add(site);
    const url = s.harness.addPage({ site });
    await s.openPage();
    await s.page.goto(url);
    expect(await waitFor(s.visitorId)).toMatch(ID_RE);
    await s.page.evaluate(() => window.touchtrail?.track?.('signup'));
    await s.harness.arrived(site, 'event', 1);
    await sleep(200);
  });
});
