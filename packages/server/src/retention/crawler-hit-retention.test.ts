import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { CRAWLER_HIT_RETENTION_DAYS } from './retention.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

describe('crawler hit retention', () => {
  const t = useTestApp();

  const siteWithToken = async (domain: string) => {
    const site = await insertSite(t, t.owner.accountId, { domain });
    const minted = await t.request({
      method: 'POST',
      url: '/v1/account/bot-tokens',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, name: 'edge' },
    });
    expect(minted.statusCode).toBe(201);
    return { site, token: minted.json().plaintext_token as string };
  };
  const report = async (token: string, hits: { path: string; timestamp?: Date }[]) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/crawler/hits',
      headers: bearer(token),
      payload: {
        hits: hits.map(({ path, timestamp }) => ({
          user_agent: GPTBOT,
          path,
          ...(timestamp ? { timestamp: timestamp.toISOString() } : {}),
        })),
      },
    });
    expect(response.statusCode).toBe(202);
  };
  const rawPaths = async (siteId: string) =>
    (
      await t.database.db
        .selectFrom('crawler_hits')
        .select('path')
        .where('site_id', '=', siteId)
        .orderBy('path')
        .execute()
    ).map((row) => row.path);
  const rolledUpHits = async (siteId: string) =>
    (
      await t.database.db
        .selectFrom('daily_crawler_hits')
        .select((eb) => eb.fn.sum<string>('hits').as('total'))
        .where('site_id', '=', siteId)
        .executeTakeFirstOrThrow()
    ).total.toString();

  it('deletes raw hits 90 days after they happened and were received, and keeps the daily totals', async () => {
    const { site, token } = await siteWithToken('docs.example.net');
    const start = t.clock.now();
    await report(token, [{ path: '/old' }]);
    t.clock.advance(60 * DAY_MS);
    // Reported late: it happened before the start but arrived 60 days after it.
    await report(token, [{ path: '/late', timestamp: new Date(start.getTime() - 30 * DAY_MS) }]);
    await report(token, [{ path: '/recent' }]);
    expect(await rolledUpHits(site.id)).toBe('3');

    t.clock.advance((CRAWLER_HIT_RETENTION_DAYS - 60) * DAY_MS - 1000);
    expect(await t.app.services.retention.purgeExpiredCrawlerHits()).toEqual({ deleted: 0, finished: true });
    t.clock.advance(2000);
    expect(await t.app.services.retention.purgeExpiredCrawlerHits()).toEqual({ deleted: 1, finished: true });

    expect(await rawPaths(site.id)).toEqual(['/late', '/recent']);
    expect(await rolledUpHits(site.id)).toBe('3');
    const crawlers = await t.request({
      method: 'GET',
      url: `/v1/crawlers?site_id=${site.snippet_key}&from=${start.toISOString().slice(0, 10)}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(crawlers.statusCode).toBe(200);
    expect(crawlers.body).toContain('"/old"');
  });

  it('works in bounded runs that resume where the last one stopped, site after site', async () => {
    const first = await siteWithToken('a.example.net');
    const second = await siteWithToken('b.example.net');
    await report(first.token, [{ path: '/1' }, { path: '/2' }, { path: '/3' }]);
    await report(second.token, [{ path: '/4' }]);
    t.clock.advance((CRAWLER_HIT_RETENTION_DAYS + 1) * DAY_MS);
    const run = () => t.app.services.retention.purgeExpiredCrawlerHits({ batchSize: 2, maxBatches: 1 });
    const left = async () => (await t.database.db.selectFrom('crawler_hits').select('id').execute()).length;
    // The hits the first test kept are past their time too.
    expect(await left()).toBe(6);
    // One statement of at most two rows per run; sites go in id order, so which comes first varies.
    const firstRun = await run();
    expect(firstRun.finished).toBe(false);
    expect([1, 2]).toContain(firstRun.deleted);
    expect(await left()).toBe(6 - firstRun.deleted);
    let deleted = firstRun.deleted;
    let runs = 1;
    for (let finished = false; !finished && runs < 10; runs++) {
      const next = await run();
      expect(next.deleted).toBeLessThanOrEqual(2);
      deleted += next.deleted;
      finished = next.finished;
    }
    expect(deleted).toBe(6);
    expect(await left()).toBe(0);
    expect(await rawPaths(first.site.id)).toEqual([]);
    expect(await rawPaths(second.site.id)).toEqual([]);
  });
});
