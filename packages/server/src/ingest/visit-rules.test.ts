/**
 * The visit rules (DESIGN.md §4) where they live: touchtrail_ingest_visits, called through the
 * ingest batch with crafted items. Each case runs twice, as one batch and as one batch per
 * item, so the rule holds both within a batch and from the visit stored by an earlier one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sortedLockIds } from '../db/advisory-locks.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { newEventId, newVisitorId } from './ingest.fixtures.js';
import { type IngestRow, ingestBatch, type SiteFacts } from './ingest.store.js';

const MINUTE_MS = 60_000;
const CHATGPT = 'chatgpt|chatgpt.com|||';
const GOOGLE = 'search|www.google.com|||';

/** One item of a case: what it is, when (minutes after the first), and its source key. */
interface Step {
  type: IngestRow['type'];
  origin?: IngestRow['origin'];
  minute: number;
  source?: string;
  engaged?: number;
}
const pageview = (minute: number, source = ''): Step => ({ type: 'pageview', minute, source });
const browserEvent = (minute: number): Step => ({ type: 'event', minute });
const serverEvent = (minute: number): Step => ({ type: 'event', origin: 'server', minute });
const engagement = (minute: number, engaged: number): Step => ({ type: 'engagement', minute, engaged });
const identify = (minute: number): Step => ({ type: 'identify', minute });

/** `visits`: per item, which visit it joined (0 the first started, 1 the next, …) or null. */
const CASES: { rule: string; steps: Step[]; visits: (number | null)[]; pageviews?: number[] }[] = [
  { rule: 'pageviews 29 minutes apart are one visit', steps: [pageview(0), pageview(29)], visits: [0, 0] },
  { rule: '31 minutes without activity end the visit', steps: [pageview(0), pageview(31)], visits: [0, 1] },
  {
    rule: 'idle time counts from the last activity, not the start',
    steps: [pageview(0), pageview(25), pageview(50)],
    visits: [0, 0, 0],
    pageviews: [3],
  },
  {
    rule: 'an arrival from another external source starts a visit',
    steps: [pageview(0, CHATGPT), pageview(1, GOOGLE)],
    visits: [0, 1],
  },
  {
    rule: 'an arrival from the same source stays in the visit',
    steps: [pageview(0, CHATGPT), pageview(1, CHATGPT)],
    visits: [0, 0],
  },
  {
    rule: 'a direct arrival or internal navigation never splits a visit',
    steps: [pageview(0, CHATGPT), pageview(1), pageview(2)],
    visits: [0, 0, 0],
  },
  { rule: 'a browser event with no open visit starts one', steps: [browserEvent(0)], visits: [0] },
  {
    rule: 'a browser event after 31 idle minutes starts a visit',
    steps: [pageview(0), browserEvent(31)],
    visits: [0, 1],
  },
  { rule: 'a server event with no open visit joins none', steps: [serverEvent(0)], visits: [null] },
  {
    rule: 'a server event joins the open visit but does not keep it alive',
    steps: [pageview(0), serverEvent(20), pageview(40)],
    visits: [0, 0, 1],
  },
  {
    rule: 'an engagement joins the open visit',
    steps: [pageview(0), engagement(10, 30)],
    visits: [0, 0],
  },
  { rule: 'an engagement with no open visit joins none', steps: [engagement(0, 5)], visits: [null] },
  { rule: 'identify never touches visits', steps: [identify(0), pageview(1)], visits: [null, 0] },
];

describe('the visit rules in touchtrail_ingest_visits', () => {
  const t = useTestApp();
  let site: SiteFacts & { id: string };
  beforeAll(async () => {
    const inserted = await insertSite(t, t.owner.accountId);
    site = {
      id: inserted.id,
      ...(await t.database.db
        .selectFrom('sites')
        .select(['snippet_key', 'domain', 'cookie_apex_domain', 'currency'])
        .where('id', '=', inserted.id)
        .executeTakeFirstOrThrow()),
    };
  });

  const rowsOf = (steps: Step[]): IngestRow[] => {
    const visitorId = newVisitorId();
    const start = t.clock.now().getTime();
    return steps.map((step, index) => ({
      ord: index + 1,
      snippet_key: site.snippet_key,
      origin: step.origin ?? 'browser',
      type: step.type,
      event_id: newEventId(),
      visitor_id: visitorId,
      name: step.type === 'event' ? 'signup' : undefined,
      url: 'https://shop.example.com/',
      occurred_ms: start + step.minute * MINUTE_MS,
      received_ms: start + step.minute * MINUTE_MS,
      engaged_seconds: step.engaged,
      source_kind: step.source ? 'ai' : 'unknown',
      session_ai_source: step.source ? step.source.split('|')[0] : 'direct',
      source_key: step.source ?? '',
    }));
  };

  const send = (rows: IngestRow[]) =>
    ingestBatch(t.database.db, {
      lockIds: sortedLockIds(rows.map((row) => `${row.snippet_key}|event:${row.event_id}`)),
      facts: [site],
      rows: rows.map((row, index) => ({ ...row, ord: index + 1 })),
      now: t.clock.now(),
      goalLimit: 200,
    });

  /** Each item's visit as an index in the order visits started, and each visit's pageviews. */
  const visitsOf = async (rows: IngestRow[]) => {
    const visits = await t.database.db
      .selectFrom('visits')
      .select(['id', 'pageviews'])
      .where('site_id', '=', site.id)
      .where('visitor_id', '=', rows[0]?.visitor_id as string)
      .orderBy('started_at')
      .execute();
    const events = await t.database.db
      .selectFrom('events')
      .select(['event_id', 'visit_id'])
      .where('site_id', '=', site.id)
      .where('visitor_id', '=', rows[0]?.visitor_id as string)
      .execute();
    const visitOf = new Map(events.map((event) => [event.event_id, event.visit_id]));
    const ids = visits.map((visit) => visit.id);
    return {
      joined: rows.map((row) => {
        const id = visitOf.get(row.event_id);
        return id ? ids.indexOf(id) : null;
      }),
      pageviews: visits.map((visit) => visit.pageviews),
    };
  };

  for (const split of ['in one batch', 'one batch per item'] as const) {
    describe(split, () => {
      it.each(CASES)('$rule', async ({ steps, visits, pageviews }) => {
        const rows = rowsOf(steps);
        if (split === 'in one batch')
          expect((await send(rows)).outcomes.every((outcome) => outcome === 'recorded')).toBe(true);
        else for (const row of rows) expect((await send([row])).outcomes).toEqual(['recorded']);
        const stored = await visitsOf(rows);
        expect(stored.joined).toEqual(visits);
        if (pageviews) expect(stored.pageviews).toEqual(pageviews);
      });
    });
  }
});
