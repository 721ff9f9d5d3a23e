/**
 * `GET /v1/stats/realtime` against a plain computation over traffic sent through the real
 * ingest. Dataset: 36 seeded visitors arriving over the 40 minutes before "now" (most of them
 * lately) from ChatGPT, Perplexity, Google or nowhere, 1–3 pageviews over 14 pages a minute or
 * two apart, some with a custom event; plus the edges: a pageview 5:01 ago (out), 4:59 and
 * exactly 5:00 ago (in), a visitor kept current only by a custom event, one whose only recent
 * event came from a server (not current), and another site's traffic (never counted).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { serverEvent } from '../attribution/attribution.fixtures.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS, SECOND_MS } from '../lib/clock.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { seeded } from '../test/seeded.js';

type Source = 'chatgpt' | 'perplexity' | 'google' | 'direct';
const REFERRERS: Record<Source, string> = {
  chatgpt: 'https://chatgpt.com/',
  perplexity: 'https://www.perplexity.ai/',
  google: 'https://www.google.com/',
  direct: '',
};
const CHANNEL: Record<Source, [string, string | null]> = {
  chatgpt: ['ai', 'chatgpt'],
  perplexity: ['ai', 'perplexity'],
  google: ['search', null],
  direct: ['direct', null],
};
const PAGES = Array.from({ length: 14 }, (_, i) => (i === 0 ? '/' : `/docs/${String.fromCharCode(96 + i)}`));
const NOW = new Date('2026-06-10T12:00:30.500Z');

/** One thing a visitor's browser (or the site's server) sent. */
interface Sent {
  at: Date;
  visitor: string;
  source: Source;
  kind: 'pageview' | 'event' | 'server';
  page: string;
}

function generate(): Sent[] {
  const random = seeded(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const sent: Sent[] = [];
  const ago = (ms: number) => new Date(NOW.getTime() - ms);
  for (let v = 0; v < 36; v++) {
    const visitor = newVisitorId();
    const source = pick(['chatgpt', 'perplexity', 'google', 'direct'] as const);
    // Squared: busier toward now, so the top lists have more than 10 candidates.
    let at = ago(Math.floor(random() ** 2 * 40 * MINUTE_MS));
    for (let p = 1 + Math.floor(random() * 3); p > 0 && at <= NOW; p--) {
      sent.push({ at, visitor, source, kind: 'pageview', page: pick(PAGES) });
      if (random() < 0.2)
        sent.push({ at: new Date(at.getTime() + 20 * SECOND_MS), visitor, source, kind: 'event', page: '' });
      at = new Date(at.getTime() + (60 + Math.floor(random() * 60)) * SECOND_MS);
    }
  }
  const edge = (msAgo: number, source: Source, page: string) =>
    sent.push({ at: ago(msAgo), visitor: newVisitorId(), source, kind: 'pageview', page });
  edge(5 * MINUTE_MS + SECOND_MS, 'chatgpt', '/edge/out');
  edge(5 * MINUTE_MS - SECOND_MS, 'perplexity', '/edge/in');
  edge(5 * MINUTE_MS, 'google', '/edge/exact');
  const byEvent = newVisitorId();
  sent.push({
    at: ago(20 * MINUTE_MS),
    visitor: byEvent,
    source: 'chatgpt',
    kind: 'pageview',
    page: '/signup',
  });
  sent.push({ at: ago(2 * MINUTE_MS), visitor: byEvent, source: 'chatgpt', kind: 'event', page: '' });
  const byServer = newVisitorId();
  sent.push({
    at: ago(10 * MINUTE_MS),
    visitor: byServer,
    source: 'direct',
    kind: 'pageview',
    page: '/billing',
  });
  sent.push({ at: ago(MINUTE_MS), visitor: byServer, source: 'direct', kind: 'server', page: '' });
  return sent.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The answer computed from what was sent, with the endpoint's rules spelled out plainly. */
function expected(sent: Sent[], now: Date) {
  const active = sent.filter((s) => s.kind !== 'server' && s.at <= now);
  const recent = active.filter((s) => now.getTime() - s.at.getTime() <= 5 * MINUTE_MS);
  const distinct = (items: Sent[]) => new Set(items.map((s) => s.visitor)).size;
  const groups = <K extends string>(items: Sent[], key: (s: Sent) => K) => {
    const map = new Map<K, Sent[]>();
    for (const s of items) map.set(key(s), [...(map.get(key(s)) ?? []), s]);
    return [...map];
  };
  const pages = groups(
    recent.filter((s) => s.kind === 'pageview'),
    (s) => s.page,
  )
    .map(([page, items]) => ({ page, visitors: distinct(items) }))
    .sort((a, b) => b.visitors - a.visitors || (a.page < b.page ? -1 : 1))
    .slice(0, 10);
  const sources = groups(recent, (s) => CHANNEL[s.source].join('|'))
    .map(([, items]) => {
      const [channel, ai_source] = CHANNEL[(items[0] as Sent).source];
      return { channel, ai_source, visitors: distinct(items) };
    })
    .sort(
      (a, b) =>
        b.visitors - a.visitors ||
        (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0) ||
        (a.ai_source ?? '').localeCompare(b.ai_source ?? ''),
    )
    .slice(0, 10);
  const lastMinute = Math.floor(now.getTime() / MINUTE_MS);
  const per_minute = Array.from({ length: 30 }, (_, i) => {
    const minute = lastMinute - 29 + i;
    const inMinute = active.filter((s) => Math.floor(s.at.getTime() / MINUTE_MS) === minute);
    return {
      minute: new Date(minute * MINUTE_MS).toISOString(),
      pageviews: inMinute.filter((s) => s.kind === 'pageview').length,
      visitors: distinct(inMinute),
    };
  });
  return { visitors: distinct(recent), pages, sources, per_minute, as_of: now.toISOString() };
}

describe('GET /v1/stats/realtime', () => {
  const t = useTestApp();
  const sent = generate();
  let site: Awaited<ReturnType<typeof insertSite>>;

  const realtime = (query: string, headers: Record<string, string> = bearer(t.owner.apiKey)) =>
    t.request({ method: 'GET', url: `/v1/stats/realtime?${query}`, headers });

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'live.example.com' });
    const other = await insertSite(t, t.owner.accountId, { domain: 'elsewhere.example.com' });
    const previous = new Map<string, string>();
    for (const s of sent) {
      t.clock.set(s.at);
      if (s.kind === 'server') {
        await serverEvent(t, t.owner.apiKey, {
          site_id: site.snippet_key,
          name: 'renewal',
          visitor_id: s.visitor,
        });
        continue;
      }
      const url = `https://${site.domain}${s.kind === 'event' ? '/thanks' : s.page}`;
      const payload =
        s.kind === 'pageview'
          ? pageview(site.snippet_key, s.visitor, url, previous.get(s.visitor) ?? REFERRERS[s.source])
          : { type: 'event', site: site.snippet_key, vid: s.visitor, url, name: 'signup' };
      if (s.kind === 'pageview') previous.set(s.visitor, url);
      const response = await collect(t, payload);
      expect(response.statusCode, response.body).toBe(202);
      if (previous.size % 5 === 0)
        await collect(t, pageview(other.snippet_key, newVisitorId(), `https://${other.domain}/x`));
    }
    t.clock.set(NOW);
  });

  it('has the cases the dataset promises', () => {
    const want = expected(sent, NOW);
    expect(want.pages).toHaveLength(10);
    expect(want.sources.length).toBeGreaterThanOrEqual(4);
    expect(want.per_minute.some((m) => m.pageviews === 0)).toBe(true);
    expect(want.per_minute.filter((m) => m.pageviews > 0).length).toBeGreaterThan(10);
    expect(sent.some((s) => NOW.getTime() - s.at.getTime() > 30 * MINUTE_MS)).toBe(true);
    const without = (page: string) =>
      expected(
        sent.filter((s) => s.page !== page),
        NOW,
      ).visitors;
    expect(without('/edge/out')).toBe(want.visitors);
    expect(without('/edge/in')).toBe(want.visitors - 1);
    expect(without('/edge/exact')).toBe(want.visitors - 1);
  });

  it('counts the last 5 minutes and 30 clock minutes as a plain computation does', async () => {
    const response = await realtime(`site_id=${site.snippet_key}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual(expected(sent, NOW));
  });

  it('moves with the clock: a minute on, the 5:00 edge is out and the series shifts', async () => {
    for (const later of [1 * SECOND_MS, MINUTE_MS, 7 * MINUTE_MS]) {
      const now = new Date(NOW.getTime() + later);
      t.clock.set(now);
      const response = await realtime(`site_id=${site.snippet_key}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(expected(sent, now));
    }
    t.clock.set(NOW);
  });

  it('answers zeros and 30 empty minutes for a site without traffic, by UUID for a session', async () => {
    const quiet = await insertSite(t, t.owner.accountId, { domain: 'quiet.example.com' });
    const response = await realtime(`site_id=${quiet.id}`, { cookie: t.owner.cookie });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ visitors: 0, pages: [], sources: [], as_of: NOW.toISOString() });
    expect(body.per_minute).toHaveLength(30);
    expect(
      body.per_minute.every((m: { pageviews: number; visitors: number }) => m.pageviews + m.visitors === 0),
    ).toBe(true);
    expect(body.per_minute.at(-1).minute).toBe('2026-06-10T12:00:00.000Z');
  });

  it.each([
    ['no site', '', 'site_id'],
    ['an unknown parameter', 'site_id=SITE&from=2026-01-01', 'from'],
    ['a site id that is no key', 'site_id=ttid_short', 'site_id'],
    ['an over-long site id', `site_id=ttid_${'a'.repeat(300)}`, 'site_id'],
  ])('answers 422 to %s', async (_name, query, field) => {
    const response = await realtime(query.replace('SITE', site.snippet_key));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('answers 404 for another account’s site and for a UUID sent with a key; 403 without stats:read', async () => {
    const rival = await insertSite(t, (await insertAccount(t)).accountId);
    expect((await realtime(`site_id=${rival.snippet_key}`)).statusCode).toBe(404);
    expect((await realtime(`site_id=${site.id}`)).statusCode).toBe(404);
    const noStats = await mintKey(t, t.owner.cookie, { scopes: ['ingest:write'] });
    const refused = await realtime(`site_id=${site.snippet_key}`, bearer(noStats.api_key));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'stats:read' });
    expect((await realtime(`site_id=${site.snippet_key}`, {})).statusCode).toBe(401);
  });
});
