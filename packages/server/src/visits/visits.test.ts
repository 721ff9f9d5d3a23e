/**
 * Checks `GET /v1/sessions` and `GET /v1/sessions/{id}` against a plain computation over the
 * generated traffic of visits.dataset.ts: every field of every session, filters, paging across
 * ties, time zones, trails with time on page, and the visitor report's `latest_session_id`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHandleCodec } from '../people/visitor-handles.js';
import { CHANNELS, type PlannedVisit } from './visits.dataset.js';
import {
  byStartThenId,
  expectedEntry,
  expectedSession,
  expectedTrail,
  useVisitsDataset,
  visitOfPayment,
} from './visits.expected.js';

type Session = ReturnType<typeof expectedSession> & { id: string; visitor: string; device: unknown };

const WINDOW = { from: '2026-04-30', to: '2026-05-12' };
const keyOf = (startedAt: string, channel: string) => `${startedAt}|${channel}`;
const dayIn = (timezone: string, at: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);

describe('GET /v1/sessions, against a plain computation', () => {
  const { t, data, site, list, session, goalVisitors } = useVisitsDataset();
  /** Every session of the dataset as listed, and the planned visit behind each. */
  let all: Session[];
  const planOf = new Map<string, PlannedVisit>();
  const idOf = new Map<PlannedVisit, string>();

  beforeAll(async () => {
    all = (await list({ ...WINDOW, limit: '100' })).sessions;
    const planned = new Map(data.visits.map((v) => [keyOf(v.start.toISOString(), CHANNELS[v.source]), v]));
    for (const row of all) {
      const visit = planned.get(keyOf(row.started_at, row.channel));
      if (!visit) throw new Error(`no planned visit starts at ${row.started_at} on ${row.channel}`);
      planOf.set(row.id, visit);
      idOf.set(visit, row.id);
    }
  });

  /** The handle of the visit's person: the earliest visit of every visitor id sharing a user id. */
  const expectedHandle = (visit: PlannedVisit) => {
    const person = data.visits.filter(
      (v) =>
        v.visitor === visit.visitor || (visit.identifyAs !== undefined && v.identifyAs === visit.identifyAs),
    );
    const first = person.sort((a, b) => a.start.getTime() - b.start.getTime())[0] as PlannedVisit;
    const codec = createHandleCodec(t.config.secretKey as string);
    return codec.encode({ siteId: site().id, visitId: idOf.get(first) as string });
  };
  const expectedRows = (visits: PlannedVisit[]) =>
    visits
      .map((visit) => ({
        ...expectedSession(visit, data),
        id: idOf.get(visit) as string,
        visitor: expectedHandle(visit),
        device: { device_type: 'desktop', os: 'macOS', browser: 'Chrome' },
      }))
      .sort(byStartThenId);

  it('has the cases the dataset promises', () => {
    const ties = data.visits.filter((v) => v.start.toISOString() === '2026-05-06T10:00:00.000Z');
    expect(ties).toHaveLength(3);
    const placed = data.payments.map((p) => visitOfPayment(p, data.visits));
    expect(placed.filter((v) => v === null)).toHaveLength(2);
    expect(new Set(data.visits.map((v) => v.source)).size).toBe(5);
    expect(data.visits.some((v) => v.pages.length > 2 && v.events.length > 0)).toBe(true);
  });

  it('lists every session of the window, newest first, each as computed', () => {
    expect(all).toHaveLength(data.visits.length);
    expect(all).toEqual(expectedRows(data.visits));
  });

  it('pages with the cursor across sessions that started together', async () => {
    const seen: Session[] = [];
    let before: string | null = null;
    for (let page = 0; page < 40; page++) {
      const body: { sessions: Session[]; next_before: string | null } = await list({
        ...WINDOW,
        limit: '2',
        ...(before ? { before } : {}),
      });
      seen.push(...body.sessions);
      before = body.next_before;
      expect(before === null).toBe(body.sessions.length < 2);
      if (!before) break;
    }
    expect(seen.map((s) => s.id)).toEqual(all.map((s) => s.id));
    // The three visits that started together straddle a page boundary.
    const ties = all.flatMap((s, i) => (s.started_at === '2026-05-06T10:00:00.000Z' ? [i] : []));
    expect(ties.some((i) => i % 2 === 1 && ties.includes(i + 1))).toBe(true);
  });

  it('filters to the AI channel, to a goal, and by conversion', async () => {
    const ids = (body: { sessions: Session[] }) => body.sessions.map((s) => s.id);
    const ai = await list({ ...WINDOW, filters: JSON.stringify([['is', 'visit:channel', ['ai']]]) });
    expect(ai.sessions).toEqual(expectedRows(data.visits.filter((v) => CHANNELS[v.source] === 'ai')));
    const signups = await list({ ...WINDOW, filters: JSON.stringify([['is', 'event:goal', ['signup']]]) });
    expect(ids(signups)).toEqual(
      expectedRows(data.visits.filter((v) => v.events.some((e) => e.name === 'signup'))).map((s) => s.id),
    );
    const converted = await list({ ...WINDOW, converted: 'true', limit: '100' });
    const didConvert = (v: PlannedVisit) => expectedSession(v, data).conversions > 0;
    expect(converted.sessions).toEqual(expectedRows(data.visits.filter(didConvert)));
    const notConverted = await list({ ...WINDOW, converted: 'false', limit: '100' });
    expect(ids(notConverted)).toEqual(
      expectedRows(data.visits.filter((v) => !didConvert(v))).map((s) => s.id),
    );
    const aiBuyers = await list({
      ...WINDOW,
      converted: 'true',
      filters: JSON.stringify([
        ['is', 'visit:channel', ['ai']],
        ['not', ['is', 'visit:entry_page', ['/']]],
      ]),
    });
    expect(ids(aiBuyers)).toEqual(
      expectedRows(
        data.visits.filter((v) => CHANNELS[v.source] === 'ai' && v.pages[0]?.path !== '/' && didConvert(v)),
      ).map((s) => s.id),
    );
  });

  it('counts a session on the day it started in the time zone', async () => {
    const zone = 'America/New_York';
    const body = await list({ from: '2026-05-07', to: '2026-05-07', timezone: zone });
    const onDay = data.visits.filter((v) => dayIn(zone, v.start) === '2026-05-07');
    expect(onDay.some((v) => dayIn('UTC', v.start) === '2026-05-08')).toBe(true);
    expect(body.sessions.map((s: Session) => s.id)).toEqual(expectedRows(onDay).map((s) => s.id));
    const utc = await list({ from: '2026-05-07', to: '2026-05-07' });
    expect(utc.sessions.map((s: Session) => s.id)).toEqual(
      expectedRows(data.visits.filter((v) => dayIn('UTC', v.start) === '2026-05-07')).map((s) => s.id),
    );
  });

  it('opens each session with its entry source and its trail in order, with time on page', async () => {
    for (const row of all) {
      const visit = planOf.get(row.id) as PlannedVisit;
      const body = await session(row.id);
      expect(body).toEqual({
        ...row,
        entry: expectedEntry(visit, site().domain),
        trail: expectedTrail(visit, data),
        trail_truncated: false,
      });
    }
  });

  it('opens the latest session of a goal visitor row, under the same visitor handle', async () => {
    const report = await goalVisitors('signup', { ...WINDOW, page_size: '100' });
    expect(report.visitors.length).toBeGreaterThan(1);
    for (const row of report.visitors as { handle: string; latest_session_id: string }[]) {
      const opened = await session(row.latest_session_id);
      expect(opened.id).toBe(row.latest_session_id);
      expect(opened.visitor).toBe(row.handle);
    }
    const phone = data.visits.find((v) => v.identifyAs && v.events.some((e) => e.origin === 'server'));
    expect(report.visitors.map((r: { latest_session_id: string }) => r.latest_session_id)).toContain(
      idOf.get(phone as PlannedVisit),
    );
  });
});
