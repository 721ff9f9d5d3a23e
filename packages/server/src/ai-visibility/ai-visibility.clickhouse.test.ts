/**
 * The AI visibility report reads its raw traffic (crawler hits per purpose, AI visits per entry
 * page) from ClickHouse: over the suite's dataset, all copied and then with more visits and hits
 * not yet copied, each read and the whole report are the same as from PostgreSQL alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { KeyPrincipal } from '../access/principal.js';
import type { ClickHouse } from '../clickhouse/connection.js';
import { CHROME_UA, newEventId, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { bearer, useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { insertSite } from '../test/factories.js';
import { chAiVisitsByPage, chRawCrawlerHitsByPage } from './ai-visibility.ch.query.js';
import { AGENTS, at, NOW, sendDataset } from './ai-visibility.dataset.js';
import { createAiVisibilityService } from './ai-visibility.service.js';
import { aiVisitsByPage } from './ai-visits-by-page.query.js';
import { rawCrawlerHitsByPage } from './crawler-hits-by-page.query.js';

const byKey = <T extends object>(rows: T[]) =>
  [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

describe.runIf(chdbInstalled)('AI visibility from ClickHouse', () => {
  const t = useTestApp({}, { clickhouse: true });
  let site: Awaited<ReturnType<typeof insertSite>>;
  const failures: unknown[] = [];
  const principal = (): KeyPrincipal => ({
    kind: 'key',
    accountId: t.owner.accountId,
    keyId: 'test',
    createdBy: null,
    scopes: ['stats:read'],
    siteId: null,
  });
  const service = (withClickHouse: boolean) =>
    createAiVisibilityService({
      db: t.database.db,
      clock: t.clock,
      sites: t.app.services.sites,
      rates: t.app.services.rates,
      clickhouse: withClickHouse
        ? { ch: t.clickhouse as ClickHouse, onFailure: (error) => failures.push(error) }
        : undefined,
    });

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'vis.example.com' });
    const other = await insertSite(t, t.owner.accountId, { domain: 'other.example.com' });
    await sendDataset(t, site, other);
  }, 120_000);

  /** Compares both engines; `uncopied` says whether the read must have met rows not yet copied. */
  async function bothAgree(uncopied: boolean) {
    const w = { siteId: site.id, from: '2026-05-01', to: '2026-05-11' };
    const range = { start: at('2026-05-01T00:00:00'), end: at('2026-05-12T00:00:00') };
    const readers = {
      db: t.database.db,
      clickhouse: { ch: t.clickhouse as ClickHouse, onFailure: () => {} },
    };
    const fromClickHouse = await readClickHouse(readers, site.id, null, async (ch, scope) => ({
      tail: scope.tail.rows.visits.length + scope.tail.rows.crawler_hits.length,
      hits: await chRawCrawlerHitsByPage(ch, scope, range),
      visits: await chAiVisitsByPage(ch, scope, range),
    }));
    expect(fromClickHouse).not.toBeNull();
    expect((fromClickHouse?.tail ?? 0) > 0).toBe(uncopied);
    expect(byKey(fromClickHouse?.hits ?? [])).toEqual(byKey(await rawCrawlerHitsByPage(t.database.db, w)));
    expect(byKey(fromClickHouse?.visits ?? [])).toEqual(
      byKey(await aiVisitsByPage(t.database.db, { siteId: site.id, ...range })),
    );
    for (const attribution_model of ['last_touch', 'linear'] as const) {
      for (const timezone of ['UTC', 'Asia/Kathmandu']) {
        const query = {
          site_id: site.snippet_key,
          from: '2026-05-01',
          to: '2026-05-11',
          attribution_model,
          timezone,
        };
        const report = await service(true).report(principal(), query);
        expect(failures).toEqual([]);
        expect(report).toEqual(await service(false).report(principal(), query));
      }
    }
  }

  it('answers as PostgreSQL with everything copied', async () => {
    const shipper = t.app.services.clickhouseEngine?.shipper;
    if (!shipper) throw new Error('the app runs without ClickHouse');
    await copyEverything(t.database.db, shipper);
    await bothAgree(false);
  });

  it('answers as PostgreSQL with the latest visits and hits not yet copied', async () => {
    const minted = await t.request({
      method: 'POST',
      url: '/v1/account/bot-tokens',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key },
    });
    const send = (payload: object, headers: Record<string, string>, url: string) =>
      t.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(payload) });
    for (const [path, ref] of [
      ['/pricing?plan=pro', 'https://chatgpt.com/'],
      ['/fresh', 'https://www.perplexity.ai/'],
      ['/', 'https://www.google.com/'],
    ] as const) {
      const view = {
        eid: newEventId(),
        ...pageview(site.snippet_key, newVisitorId(), `https://vis.example.com${path}`, ref),
      };
      const response = await send(
        view,
        { 'content-type': 'text/plain', 'user-agent': CHROME_UA },
        '/v1/collect',
      );
      expect(response.statusCode, response.body).toBe(202);
    }
    const hits = ['/fresh', '/pricing?ref=b', '/docs/a#x'].map((path) => ({
      user_agent: AGENTS.ClaudeBot[2],
      path,
      timestamp: NOW.toISOString(),
    }));
    const response = await send(
      { hits },
      { ...bearer(minted.json().plaintext_token), 'content-type': 'application/json' },
      '/v1/crawler/hits',
    );
    expect(response.statusCode, response.body).toBe(202);
    await bothAgree(true);
  });
});
