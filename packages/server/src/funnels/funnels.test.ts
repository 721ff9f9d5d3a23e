/**
 * Funnel reports against a plain computation over the generated traffic of funnels.dataset.ts
 * (sent through the real ingest, the clock moved to each moment), the funnels' quick path of a
 * URL against the stats one, and a saved funnel's round trip through create, list, read,
 * report, change and delete.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../ingest/ingest.fixtures.js';
import { urlPath } from '../reporting/visit-columns.sql.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import {
  CHANNELS,
  craftedPeople,
  generatePeople,
  type PlannedPerson,
  requestsOf,
} from './funnels.dataset.js';
import { expectedReport, type Funnel, progressOf, type Step } from './funnels.expected.js';

const RANGE = { from: '2026-05-01', to: '2026-05-10' };
const BLOG_TO_PRO: Funnel = {
  steps: [
    { type: 'page', match: 'matches', value: '/blog/*' },
    { type: 'page', match: 'is', value: '/pricing' },
    { type: 'event', name: 'signup', property: { key: 'plan', value: 'pro' } },
  ],
  windowHours: 48,
  ...RANGE,
};
const BLOG_TO_PRO_LABELS = ['/blog/*', '/pricing', 'signup (plan = pro)'];
/** `contains` any case, and a purchase from the browser or, with only a user id, from the server. */
const PRICING_TO_PURCHASE: Funnel = {
  steps: [
    { type: 'page', match: 'contains', value: 'PRIC' },
    { type: 'event', name: 'purchase' },
  ],
  windowHours: 168,
  ...RANGE,
};
const PRICING_TO_PURCHASE_LABELS = ['contains PRIC', 'purchase'];

describe('funnels, against a plain computation', () => {
  const t = useTestApp();
  const crafted = craftedPeople();
  const people: PlannedPerson[] = [...generatePeople(), ...crafted];
  let site: Awaited<ReturnType<typeof insertSite>>;

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
    for (const request of requestsOf(people, site)) {
      t.clock.set(request.at);
      const response =
        request.via === 'collect'
          ? await collect(t, request.payload)
          : await t.request({
              method: 'POST',
              url: '/v1/server/events',
              headers: bearer(t.owner.apiKey),
              payload: request.payload,
            });
      if (response.statusCode !== 202)
        throw new Error(`ingest answered ${response.statusCode}: ${response.body}`);
    }
    t.clock.set(new Date('2026-05-20T12:00:00Z'));
  });

  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const response = await t.request({ method, url, headers: bearer(t.owner.apiKey), payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.statusCode === 204 ? null : response.json();
  };
  const query = (f: Funnel, extra: Record<string, unknown> = {}) =>
    send('POST', '/v1/funnels/query', {
      site_id: site.snippet_key,
      steps: f.steps,
      window_hours: f.windowHours,
      date_range: [f.from, f.to],
      ...extra,
    });

  it('has the people each rule needs, and the plain computation takes them as planned', () => {
    for (const person of crafted) {
      expect(progressOf(person, BLOG_TO_PRO).times.length, person.label).toBe(person.reaches);
    }
    const aiOnly = progressOf(
      crafted.find((p) => p.label === 'earliest entry') as PlannedPerson,
      BLOG_TO_PRO,
      (o) => o.source !== null && CHANNELS[o.source] === 'ai',
    );
    expect(aiOnly.times).toHaveLength(3);
    // Someone's purchase step is one their server sent, with only their user id.
    const fromServer = people.filter((person) => {
      const { times } = progressOf(person, PRICING_TO_PURCHASE);
      return times.length === 2 && person.serverPurchases.some((at) => at.getTime() === times[1]);
    });
    expect(fromServer.length).toBeGreaterThan(0);
  });

  it('counts each step of a page, page and event-with-property funnel', async () => {
    const body = await query(BLOG_TO_PRO);
    expect(body).toEqual({
      ...expectedReport(people, BLOG_TO_PRO, BLOG_TO_PRO_LABELS),
      meta: { date_range: [RANGE.from, RANGE.to], window_hours: 48 },
    });
    expect(body.steps[2].visitors).toBeGreaterThanOrEqual(3);
  });

  it('merges identities and counts purchases from the server', async () => {
    const body = await query(PRICING_TO_PURCHASE);
    expect(body.steps).toEqual(expectedReport(people, PRICING_TO_PURCHASE, PRICING_TO_PURCHASE_LABELS).steps);
  });

  it('breaks down by the channel and the assistant of the visit where step 1 happened', async () => {
    const byChannel = await query(BLOG_TO_PRO, { breakdown: 'visit:channel' });
    const channelOf = (o: { source: keyof typeof CHANNELS | null }) => (o.source ? CHANNELS[o.source] : null);
    expect(byChannel).toEqual({
      ...expectedReport(people, BLOG_TO_PRO, BLOG_TO_PRO_LABELS, { groupOf: channelOf }),
      meta: { date_range: [RANGE.from, RANGE.to], window_hours: 48 },
    });
    expect(byChannel.breakdown.length).toBeGreaterThanOrEqual(3);
    const byAssistant = await query(PRICING_TO_PURCHASE, { breakdown: 'visit:ai_source' });
    const assistantOf = (o: { source: keyof typeof CHANNELS | null }) =>
      o.source && CHANNELS[o.source] === 'ai' ? o.source : null;
    expect(byAssistant.breakdown).toEqual(
      expectedReport(people, PRICING_TO_PURCHASE, PRICING_TO_PURCHASE_LABELS, { groupOf: assistantOf })
        .breakdown,
    );
  });

  it('enters each person at their earliest step 1 in a visit that passes the filters', async () => {
    const body = await query(BLOG_TO_PRO, { filters: [['is', 'visit:channel', ['ai']]] });
    const isAi = (o: { source: keyof typeof CHANNELS | null }) =>
      o.source !== null && CHANNELS[o.source] === 'ai';
    expect(body.steps).toEqual(
      expectedReport(people, BLOG_TO_PRO, BLOG_TO_PRO_LABELS, { passes: isAi }).steps,
    );
  });

  it('takes the days of the range in the time zone asked for', async () => {
    const body = await query(BLOG_TO_PRO, { timezone: 'Asia/Kolkata' });
    const inIndia = { ...BLOG_TO_PRO, offset: '+05:30' };
    expect(body.steps).toEqual(expectedReport(people, inIndia, BLOG_TO_PRO_LABELS).steps);
    expect(body.steps).not.toEqual(expectedReport(people, BLOG_TO_PRO, BLOG_TO_PRO_LABELS).steps);
  });

  it('takes the path of a URL by the one rule (touchtrail_url_path) for every kind of URL', async () => {
    const urls = [
      'https://a.example/',
      'https://a.example',
      'https://a.example/blog/x?y=1#z',
      'http://a.example/p#f',
      'https://a.example?next=/pricing',
      'https://a.example#/route',
      'HTTPS://A.EXAMPLE/Caps',
      'https://user@a.example:8080/p/q/',
      'https://a.example//double',
      'https://a.example/%E2%9C%93/ünï',
      'https://a.example/a://b?c#d?e',
      'ftp://files.example/f',
      'no scheme',
      '',
    ];
    // The plain rule: the path after scheme and host, up to a query or fragment.
    const regex = sql`case when u.url = '' then null
      else coalesce(nullif(substring(u.url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*([^?#]*)'), ''), '/') end`;
    const { rows } = await sql<{ url: string; plain: string | null; stored: string | null }>`
      select u.url, ${regex} as plain, ${urlPath(sql`u.url`)} as stored
      from (values ${sql.join(urls.map((url) => sql`(${url})`))}) as u(url)`.execute(t.database.db);
    expect(rows).toHaveLength(urls.length);
    for (const row of rows) expect(row.stored, row.url).toBe(row.plain);
    expect(rows.map((row) => row.stored)).toContain('/%E2%9C%93/ünï');
    const nothing = await sql<{ path: string | null }>`select ${urlPath(sql`null`)} as path`.execute(
      t.database.db,
    );
    expect(nothing.rows[0]?.path).toBeNull();
  });

  it('answers zeros for a range without traffic', async () => {
    const body = await query({ ...BLOG_TO_PRO, from: '2025-01-01', to: '2025-01-31' });
    expect(body.steps.map((s: { visitors: number }) => s.visitors)).toEqual([0, 0, 0]);
    expect(body.steps[0]).toMatchObject({
      conversion_from_previous: 0,
      drop_off: 0,
      median_seconds_to_next: null,
    });
  });

  it('saves, lists, reads, reports on, changes and deletes a funnel', async () => {
    const created = await send('POST', '/v1/funnels', {
      site_id: site.snippet_key,
      name: '  Blog to pro 📈  ',
      steps: BLOG_TO_PRO.steps,
      window_hours: 48,
    });
    const funnel = created.funnel;
    expect(funnel).toMatchObject({
      site_id: site.snippet_key,
      name: 'Blog to pro 📈',
      steps: BLOG_TO_PRO.steps,
      window_hours: 48,
      created_at: '2026-05-20T12:00:00.000Z',
      updated_at: '2026-05-20T12:00:00.000Z',
    });
    t.clock.advance(1000);
    const other = (
      await send('POST', '/v1/funnels', {
        site_id: site.snippet_key,
        name: 'Pricing',
        steps: PRICING_TO_PURCHASE.steps,
      })
    ).funnel;
    expect(other.window_hours).toBe(168);
    const listed = await send('GET', `/v1/funnels?site_id=${site.snippet_key}`);
    expect(listed.funnels.map((f: { id: string }) => f.id)).toEqual([funnel.id, other.id]);
    expect(await send('GET', `/v1/funnels/${funnel.id}?site_id=${site.snippet_key}`)).toEqual({ funnel });

    const reportUrl = `/v1/funnels/${funnel.id}/report?site_id=${site.snippet_key}&from=${RANGE.from}&to=${RANGE.to}`;
    expect(await send('GET', reportUrl)).toEqual(await query(BLOG_TO_PRO));
    const filters = encodeURIComponent(JSON.stringify([['is', 'visit:channel', ['ai']]]));
    expect(await send('GET', `${reportUrl}&breakdown=visit:ai_source&filters=${filters}`)).toEqual(
      await query(BLOG_TO_PRO, { breakdown: 'visit:ai_source', filters: [['is', 'visit:channel', ['ai']]] }),
    );
    const lastMonth = await send('GET', `/v1/funnels/${funnel.id}/report?site_id=${site.snippet_key}`);
    expect(lastMonth.meta).toEqual({ date_range: ['2026-04-21', '2026-05-20'], window_hours: 48 });

    t.clock.advance(60_000);
    const steps: Step[] = [BLOG_TO_PRO.steps[0] as Step, BLOG_TO_PRO.steps[1] as Step];
    const changed = await send('PATCH', `/v1/funnels/${funnel.id}`, { site_id: site.snippet_key, steps });
    expect(changed.funnel).toEqual({ ...funnel, steps, updated_at: '2026-05-20T12:01:01.000Z' });
    const renamed = await send('PATCH', `/v1/funnels/${funnel.id}`, {
      site_id: site.snippet_key,
      name: 'Blog to pricing',
      window_hours: 24,
    });
    expect(renamed.funnel).toMatchObject({ name: 'Blog to pricing', steps, window_hours: 24 });
    const report = await send('GET', reportUrl);
    expect(report.steps).toEqual(
      expectedReport(people, { ...BLOG_TO_PRO, steps, windowHours: 24 }, BLOG_TO_PRO_LABELS.slice(0, 2))
        .steps,
    );

    await send('DELETE', `/v1/funnels/${funnel.id}?site_id=${site.snippet_key}`);
    const gone = await t.request({
      method: 'GET',
      url: `/v1/funnels/${funnel.id}?site_id=${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error: 'not_found' });
    const left = await send('GET', `/v1/funnels?site_id=${site.snippet_key}`);
    expect(left.funnels.map((f: { id: string }) => f.id)).toEqual([other.id]);
  });
});
