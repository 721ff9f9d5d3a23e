/**
 * Contract audit of the tracker for rules the other browser tests leave open: an
 * operator-chosen script name and collect path, a replaceState navigation, calls that would
 * throw inside the snippet, and fresh visitor ids per browser.
 */
import { describe, expect, test } from 'vitest';
import { ID_RE, useBrowserSession } from './browser-session';
import { newSiteKey, sleep, waitFor } from './harness';

const s = useBrowserSession();

describe('configurable script name and collect path', () => {
  test('posts to the collect path written into the script, on the origin the script came from', async () => {
    const site = newSiteKey();
    const built = await (await fetch(`${s.harness.ingestOrigin}/t.js`)).text();
    // What the server serves with TRACKER_SCRIPT_PATH=/assets/app-metrics.js COLLECT_PATH=/assets/m.
    const script = built.replace('"/v1/collect"', '"/assets/m"');
    expect(script).not.toBe(built);
    const ingestOrigin = `http://cdn.touchtrail.test:${s.harness.port}`;
    const scriptTag = `<script defer src="${ingestOrigin}/assets/app-metrics.js" data-site="${site}"></script>`;
    const url = s.harness.addPage({ site, scriptTag });
    await s.openPage();
    const beacons: { url: string; method: string; body: string | null }[] = [];
    await s.context.route(`${ingestOrigin}/assets/app-metrics.js`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: script }),
    );
    await s.context.route(`${ingestOrigin}/assets/m`, (route) => {
      const request = route.request();
      beacons.push({ url: request.url(), method: request.method(), body: request.postData() });
      return route.fulfill({
        status: 202,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': '*' },
        body: '{"accepted":true}',
      });
    });
    await s.page.goto(url);
    expect(await waitFor(s.visitorId)).toMatch(ID_RE);
    await s.page.evaluate(() => window.touchtrail?.track?.('signup'));
    await waitFor(() => beacons.length >= 2);
    expect(beacons.map((b) => [b.method, b.url])).toEqual([
      ['POST', `${ingestOrigin}/assets/m`],
      ['POST', `${ingestOrigin}/assets/m`],
    ]);
    expect(beacons.map((b) => JSON.parse(b.body ?? '{}').type)).toEqual(['pageview', 'event']);
    expect(s.harness.payloads(site)).toEqual([]);
  });
});

describe('single-page navigation', () => {
  test('replaceState to another path or query sends a pageview, as pushState does', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    await s.openPage();
    await s.page.goto(url);
    await s.harness.arrived(site, 'pageview', 1);
    const replaced = url.replace(/start$/, 'filtered?color=red');
    await s.page.evaluate((next) => history.replaceState({}, '', next), replaced);
    const pageviews = await s.harness.arrived(site, 'pageview', 2);
    expect(pageviews.map((p) => [p.url, p.ref])).toEqual([
      [url, ''],
      [replaced, url],
    ]);
  });
});

describe('never in the way', () => {
  test('properties that cannot be serialised, and calls with wrong arguments, are swallowed; later calls still work', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    await s.openPage();
    await s.page.goto(url);
    await waitFor(s.visitorId);
    const thrown = await s.page.evaluate(() => {
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const hostile = {
        get plan() {
          throw new Error('getter');
        },
      };
      const big = { n: BigInt(1) };
      const t = window.touchtrail as unknown as Record<string, (...args: unknown[]) => unknown>;
      const calls: (() => unknown)[] = [
        () => t.track?.('circular', circular),
        () => t.track?.('hostile', hostile),
        () => t.track?.('bigint', big),
        () => t.track?.(undefined),
        () => t.track?.({ name: 'object' }),
        () => t.identify?.(null),
        () => t.identify?.({}),
      ];
      let count = 0;
      for (const call of calls) {
        try {
          call();
        } catch {
          count += 1;
        }
      }
      window.touchtrail?.track?.('after', { ok: true });
      return count;
    });
    expect(thrown).toBe(0);
    const [after] = await s.harness.arrived(site, 'event', 1);
    await sleep(200);
    expect(after).toMatchObject({ name: 'after', props: { ok: true } });
    expect(s.harness.payloads(site, 'event')).toHaveLength(1);
    expect(s.harness.payloads(site, 'identify')).toEqual([]);
  });
});

describe('visitor id', () => {
  test('two browsers get two different random ids', async () => {
    const site = newSiteKey();
    const url = s.harness.addPage({ site });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      if (i > 0) await s.context.close();
      await s.openPage();
      await s.page.goto(url);
      ids.push(await waitFor(s.visitorId));
    }
    expect(ids[0]).toMatch(ID_RE);
    expect(ids[1]).toMatch(ID_RE);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
