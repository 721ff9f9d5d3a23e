/** Hits refused as bots, counted per site and shown for the last hour (GET /v1/sites/:id/refusals). */
import { describe, expect, it } from 'vitest';
import { CHROME_UA, collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { addOtherAccount, addSite, asKey, asSession } from './sites.fixtures.js';

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
});
