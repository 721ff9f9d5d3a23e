/** Hits refused as bots, counted per site and shown for the last hour (GET /v1/sites/:id/refusals). */
import { describe, expect, it } from 'vitest';
import { CHROME_UA, collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { REFUSALS_KEPT_DAYS } from './site-refusals.js';
import { addOtherAccount, addSite, asKey, asSession, siteUuid } from './sites.fixtures.js';

const CURL_UA = 'curl/8.5.0';
const HEADLESS_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';

describe('refused hits of a site', () => {
  const t = useTestApp();
  const refusalsOf = (siteId: string, auth = asKey(t.owner.apiKey)) =>
    t.request({ method: 'GET', url: `/v1/sites/${siteId}/refusals`, headers: auth });
  const hit = (siteId: string, userAgent: string) =>
    collect(t, pageview(siteId, newVisitorId(), 'https://refused.example/'), { userAgent });

  it('counts curl and headless Chromium as bots, and forgets them after an hour', async () => {
    const site = await addSite(t, asKey(t.owner.apiKey), 'refused.example');
    expect((await refusalsOf(site.site_id)).json()).toMatchObject({ refusals: [] });

    for (const userAgent of [CURL_UA, HEADLESS_UA, HEADLESS_UA]) {
      expect((await hit(site.site_id, userAgent)).json()).toEqual({ accepted: false, reason: 'bot' });
    }
    expect((await hit(site.site_id, CHROME_UA)).json()).toEqual({ accepted: true });

    const response = await refusalsOf(site.site_id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      since: new Date(t.clock.now().getTime() - 60 * MINUTE_MS).toISOString(),
      refusals: [{ reason: 'bot', hits: 3 }],
    });
    expect((await refusalsOf(site.site_id, asSession(t.owner.cookie))).json().refusals).toEqual([
      { reason: 'bot', hits: 3 },
    ]);

    t.clock.advance(65 * MINUTE_MS);
    await hit(site.site_id, CURL_UA);
    expect((await refusalsOf(site.site_id)).json().refusals).toEqual([{ reason: 'bot', hits: 1 }]);
  });

  it('answers 404 for another account’s site and 422 for a malformed id', async () => {
    const rival = await addOtherAccount(t);
    const theirs = await addSite(t, asKey(rival.apiKey), 'theirs.example');
    await hit(theirs.site_id, CURL_UA);
    const other = await refusalsOf(theirs.site_id);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ error: 'not_found' });
    expect((await refusalsOf('not-a-site')).statusCode).toBe(422);
  });

  it('counts nothing for an unknown snippet key', async () => {
    const rows = () => t.database.db.selectFrom('ingest_refusals').select('site_id').execute();
    const before = (await rows()).length;
    expect((await hit(`ttid_${'Z'.repeat(22)}`, CURL_UA)).json()).toEqual({ accepted: false, reason: 'bot' });
    expect(await rows()).toHaveLength(before);
  });

  it('deletes counts older than a week in the hourly retention run, and keeps the recent ones', async () => {
    const site = await addSite(t, asKey(t.owner.apiKey), 'pruned.example');
    const siteId = site.site_id;
    const uuid = await siteUuid(t, site.snippet_key);
    const now = t.clock.now().getTime();
    const periodsAgo = (days: number) => new Date(now - days * DAY_MS);
    await t.database.db
      .insertInto('ingest_refusals')
      .values([
        { site_id: uuid, period_start: periodsAgo(REFUSALS_KEPT_DAYS + 1), reason: 'bot', hits: 4 },
        { site_id: uuid, period_start: periodsAgo(30), reason: 'bot', hits: 9 },
        { site_id: uuid, period_start: periodsAgo(REFUSALS_KEPT_DAYS - 1), reason: 'bot', hits: 2 },
      ])
      .execute();
    await hit(siteId, CURL_UA);
    const periods = async () =>
      (
        await t.database.db
          .selectFrom('ingest_refusals')
          .select('hits')
          .where('site_id', '=', uuid)
          .orderBy('period_start')
          .execute()
      ).map((row) => row.hits);
    expect(await periods()).toEqual([9, 4, 2, 1]);

    const first = await t.app.services.retention.purgeOldRefusals({ batchSize: 1, maxBatches: 1 });
    expect(first).toEqual({ deleted: 1, finished: false });
    expect(await t.app.services.retention.purgeOldRefusals()).toEqual({ deleted: 1, finished: true });
    expect(await periods()).toEqual([2, 1]);
    expect((await refusalsOf(siteId)).json().refusals).toEqual([{ reason: 'bot', hits: 1 }]);
  });
});
