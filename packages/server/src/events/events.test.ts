/**
 * Checks `GET /v1/events` and `GET /v1/events/names` against a plain computation over the
 * traffic of events.dataset.ts: every filter, the window in a time zone, names with counts, and
 * cursor paging through events that share one instant.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHandleCodec } from '../people/visitor-handles.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { buildDataset, type PlannedEvent, type PlannedVisit, SOURCES } from './events.dataset.js';

const dayIn = (timezone: string, instant: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}
const newestFirst = (a: PlannedEvent, b: PlannedEvent) =>
  b.at.getTime() - a.at.getTime() || ((b.eventId as string) < (a.eventId as string) ? -1 : 1);

describe('GET /v1/events and /v1/events/names, against a plain computation', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  let other: Awaited<ReturnType<typeof insertSite>>;
  let data: ReturnType<typeof buildDataset>;
  const visitIds = new Map<PlannedVisit, string>();
  const handles = new Map<string, string>();

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
    other = await insertSite(t, t.owner.accountId);
    data = buildDataset(site, other, t.owner.apiKey);
    for (const request of data.requests) {
      t.clock.set(request.at);
      const response = await request.send(t);
      if (response.statusCode !== 202) throw new Error(`answered ${response.statusCode}: ${response.body}`);
    }
    t.clock.set(new Date('2026-03-12T12:00:00Z'));
    const db = t.database.db;
    const payments = await db.selectFrom('payments').select(['transaction_id', 'event_id']).execute();
    for (const event of data.events) {
      if (event.transactionId) {
        event.eventId = payments.find((p) => p.transaction_id === event.transactionId)?.event_id ?? null;
      }
    }
    const stored = await db.selectFrom('visits').select(['id', 'visitor_id', 'started_at']).execute();
    for (const visit of data.visits) {
      const row = stored.find(
        (s) => s.visitor_id === visit.browser && s.started_at.getTime() === visit.start.getTime(),
      );
      if (!row) throw new Error('a planned visit was not stored');
      visitIds.set(visit, row.id);
    }
    // A person's handle names their earliest visit, whichever browser it was on.
    const codec = createHandleCodec(t.config.secretKey as string);
    const byPerson = groupBy(
      data.events.filter((e) => e.visit && e.person),
      (e) => e.person as string,
    );
    for (const [person, events] of byPerson) {
      const first = events
        .map((e) => e.visit as PlannedVisit)
        .sort((x, y) => x.start.getTime() - y.start.getTime())[0];
      handles.set(
        person,
        codec.encode({ siteId: site.id, visitId: visitIds.get(first as PlannedVisit) as string }),
      );
    }
  });

  const get = async (path: string, params: Record<string, string>) => {
    const query = new URLSearchParams({ site_id: site.snippet_key, ...params });
    const response = await t.request({
      method: 'GET',
      url: `${path}?${query}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const WHOLE = { from: '2026-03-01', to: '2026-03-12', limit: '100' };
  const list = (params: Record<string, string>) => get('/v1/events', { ...WHOLE, ...params });

  const present = (e: PlannedEvent) => ({
    event_id: e.eventId,
    type: e.type,
    name: e.name,
    timestamp: e.at.toISOString(),
    session_id: e.visit ? visitIds.get(e.visit) : null,
    visitor: e.person ? handles.get(e.person) : null,
    page: e.path,
    properties: e.properties,
    value_cents: e.value?.cents ?? null,
    currency: e.value?.currency ?? null,
    source: e.visit ? SOURCES[e.visit.referrer] : null,
  });
  const expected = (keep: (e: PlannedEvent) => boolean) =>
    data.events.filter(keep).sort(newestFirst).map(present);

  it('has the cases the dataset promises', () => {
    const types = new Set(data.events.map((e) => e.type));
    expect(types).toEqual(new Set(['pageview', 'custom', 'server', 'payment']));
    expect(data.events.filter((e) => e.at.getTime() === Date.UTC(2026, 2, 7, 12))).toHaveLength(5);
    expect(data.events.some((e) => e.properties === null)).toBe(true);
    expect(data.unlisted.length).toBeGreaterThan(0);
    expect(handles.size).toBe(6);
  });

  it('lists every pageview, custom, server and payment event of the window, newest first', async () => {
    const body = await list({});
    expect(body.events).toEqual(expected(() => true));
    expect(body.next_before).toBeNull();
    const ids = body.events.map((e: { event_id: string }) => e.event_id);
    for (const id of data.unlisted) expect(ids).not.toContain(id);
  });

  it('shows properties as stored: redacted, `{}` when none, null over 8,192 bytes', async () => {
    const body = await list({ type: 'custom', name: 'download' });
    expect(body.events.map((e: { properties: object | null }) => e.properties === null)).toEqual([
      true,
      false,
    ]);
    const signup = (await list({ type: 'custom', source: 'chatgpt' })).events[0];
    expect(signup).toMatchObject({
      properties: { contact: '[REDACTED]' },
      value_cents: 4900,
      currency: 'EUR',
    });
    const pageview = (await list({ type: 'pageview', limit: '1' })).events[0];
    expect(pageview).toMatchObject({ name: 'pageview', properties: {}, value_cents: null, currency: null });
  });

  it('defaults to the seven days ending today, and reads days in a time zone', async () => {
    const week = await get('/v1/events', { limit: '100' });
    expect(week.events).toEqual(expected((e) => dayIn('UTC', e.at) >= '2026-03-06'));
    for (const timezone of ['Asia/Tokyo', 'America/New_York']) {
      const day = await list({ from: '2026-03-06', to: '2026-03-06', timezone });
      expect(day.events).toEqual(expected((e) => dayIn(timezone, e.at) === '2026-03-06'));
      expect(day.events.length).toBeGreaterThan(0);
    }
    expect(data.events.some((e) => dayIn('Asia/Tokyo', e.at) !== dayIn('UTC', e.at))).toBe(true);
  });

  it('filters by type and by name (pageview names pageviews)', async () => {
    for (const type of ['pageview', 'custom', 'server', 'payment']) {
      expect((await list({ type })).events).toEqual(expected((e) => e.type === type));
    }
    for (const name of ['signup', 'pageview', 'trial', 'lead']) {
      expect((await list({ name })).events).toEqual(expected((e) => e.name === name));
    }
    expect(await list({ name: 'never_sent' })).toEqual({ events: [], next_before: null });
    expect((await list({ name: 'pageview', type: 'custom' })).events).toEqual([]);
    expect((await list({ name: 'signup', type: 'pageview' })).events).toEqual([]);
    expect((await list({ name: 'signup', type: 'server' })).events).toEqual(
      expected((e) => e.name === 'signup' && e.type === 'server'),
    );
  });

  it('filters by session and by person (every browser and the user alone)', async () => {
    for (const visit of data.visits) {
      const body = await list({ session: visitIds.get(visit) as string });
      expect(body.events).toEqual(expected((e) => e.visit === visit));
    }
    expect((await list({ session: randomUUID() })).events).toEqual([]);
    for (const [person, handle] of handles) {
      expect((await list({ visitor: handle })).events).toEqual(expected((e) => e.person === person));
    }
    const b = (await list({ visitor: handles.get('B') as string })).events;
    expect(new Set(b.map((e: { session_id: string | null }) => e.session_id)).size).toBe(3);
    // The handles are those the visitor reports list for the same people.
    const goal = await t.request({
      method: 'GET',
      url: `/v1/goals/signup/visitors?site_id=${site.snippet_key}&from=2026-03-01&to=2026-03-12`,
      headers: bearer(t.owner.apiKey),
    });
    const listed = new Set(goal.json().visitors.map((v: { handle: string }) => v.handle));
    expect(listed).toEqual(new Set(['A', 'B', 'D'].map((person) => handles.get(person))));
    const codec = createHandleCodec(t.config.secretKey as string);
    const elsewhere = codec.encode({ siteId: other.id, visitId: randomUUID() });
    expect(await list({ visitor: elsewhere })).toEqual({ events: [], next_before: null });
  });

  it('filters by the session’s channel or assistant, and by stats filters on the session', async () => {
    const from = (keep: (source: { channel: string; ai_source: string | null }) => boolean) =>
      expected((e) => e.visit !== null && keep(SOURCES[e.visit.referrer]));
    for (const channel of ['ai', 'search', 'social', 'direct', 'email']) {
      expect((await list({ source: channel })).events).toEqual(from((s) => s.channel === channel));
    }
    for (const assistant of ['chatgpt', 'perplexity', 'claude']) {
      expect((await list({ source: assistant })).events).toEqual(from((s) => s.ai_source === assistant));
    }
    const notDirect = await list({ filters: JSON.stringify([['is_not', 'visit:channel', ['direct']]]) });
    expect(notDirect.events).toEqual(from((s) => s.channel !== 'direct'));
    const blog = await list({
      filters: JSON.stringify([['contains', 'visit:entry_page', ['BLOG']]]),
      type: 'custom',
    });
    expect(blog.events).toEqual(expected((e) => e.type === 'custom' && e.visit?.referrer === 'google'));
  });

  it('pages with `before` through events that share one instant, none repeated or lost', async () => {
    const all = expected(() => true);
    let splitTie = false;
    for (const limit of [1, 2, 3, 4, 7]) {
      const seen: { event_id: string; timestamp: string }[] = [];
      let before: string | null = null;
      for (let page = 0; page < 100; page++) {
        const body = await list({ limit: String(limit), ...(before ? { before } : {}) });
        expect(body.events.length).toBeLessThanOrEqual(limit);
        const last = seen.at(-1);
        if (last && body.events[0]?.timestamp === last.timestamp) splitTie = true;
        seen.push(...body.events);
        before = body.next_before;
        expect(before === null).toBe(body.events.length < limit);
        if (before === null) break;
      }
      expect(seen).toEqual(all);
    }
    expect(splitTie).toBe(true);
  });

  it('counts names of custom, server and payment events, most events first', async () => {
    const names = (keep: (e: PlannedEvent) => boolean) => {
      const groups = groupBy(
        data.events.filter((e) => e.type !== 'pageview' && keep(e)),
        (e) => `${e.name}/${e.type}`,
      );
      return [...groups.values()]
        .map((group) => ({
          name: (group[0] as PlannedEvent).name,
          type: (group[0] as PlannedEvent).type,
          events: group.length,
          visitors: new Set(group.flatMap((e) => e.sender ?? [])).size,
        }))
        .sort(
          (x, y) =>
            y.events - x.events || (x.name < y.name ? -1 : x.name > y.name ? 1 : x.type < y.type ? -1 : 1),
        );
    };
    const whole = await get('/v1/events/names', { from: '2026-03-01', to: '2026-03-12' });
    expect(whole.names).toEqual(names(() => true));
    expect(whole.names.map((n: { name: string }) => n.name)).not.toContain('pageview');
    const later = await get('/v1/events/names', { from: '2026-03-02', to: '2026-03-12', type: 'server' });
    expect(later.names).toEqual(names((e) => e.type === 'server'));
    const tokyo = await get('/v1/events/names', {
      from: '2026-03-06',
      to: '2026-03-06',
      timezone: 'Asia/Tokyo',
    });
    expect(tokyo.names).toEqual(names((e) => dayIn('Asia/Tokyo', e.at) === '2026-03-06'));
    expect(await get('/v1/events/names', { from: '2026-02-01', to: '2026-02-02' })).toEqual({ names: [] });
  });
});
