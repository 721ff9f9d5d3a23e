/**
 * Posts a generated dataset (visitors.dataset.ts) through `POST /v1/collect` and
 * `POST /v1/server/events`, moving the test clock so each step happens at its planned time.
 * Requests of one step go out together, so group commit batches them as in production.
 */
import { sql } from 'kysely';
import { CHROME_UA, collect, IPHONE_UA } from '../ingest/ingest.fixtures.js';
import { bearer, type TestApp } from '../test/app.js';
import { DAYS, type Dataset, type GenEvent, SERVER_EVENT_MINUTE, SLOTS, timeOf } from './visitors.dataset.js';

export const SITE_HOST = 'shop.example.com';
const PAGE = `https://${SITE_HOST}/`;

async function expectAccepted(responses: Promise<{ statusCode: number; body: string }>[]) {
  for (const response of await Promise.all(responses)) {
    if (response.statusCode !== 202)
      throw new Error(`ingest refused: ${response.statusCode} ${response.body}`);
  }
}

export async function seedDataset(t: TestApp, site: { snippet_key: string }, apiKey: string, data: Dataset) {
  const browser = new Map(data.visitors.map((v) => [v.id, v]));
  const send = (vid: string, payload: Record<string, unknown>) => {
    const who = browser.get(vid);
    return collect(
      t,
      { site: site.snippet_key, vid, url: PAGE, ...payload },
      { userAgent: who?.isMobile ? IPHONE_UA : CHROME_UA, headers: { 'cf-ipcountry': who?.country ?? 'DE' } },
    );
  };
  const browserEvent = (e: GenEvent) =>
    send(e.visitor as string, {
      type: 'event',
      eid: e.eventId,
      name: e.name,
      ...(e.cents === null ? {} : { value: e.cents / 100, currency: e.currency }),
    });

  for (let day = 0; day < DAYS; day++) {
    for (let slot = 0; slot < SLOTS; slot++) {
      const here = <T extends { day: number; slot: number }>(items: T[]) =>
        items.filter((item) => item.day === day && item.slot === slot);
      const visits = here(data.visits);
      const events = here(data.events).filter((e) => e.origin === 'browser');
      const steps: (() => Promise<{ statusCode: number; body: string }>[])[] = [
        () => visits.map((v) => send(v.visitor, { type: 'pageview', ref: v.referrer })),
        () =>
          visits.flatMap((v) =>
            Array.from({ length: v.pageviews - 1 }, () => send(v.visitor, { type: 'pageview', ref: PAGE })),
          ),
        () => here(data.identifies).map((i) => send(i.visitor, { type: 'identify', uid: i.uid })),
        () => events.map(browserEvent),
        () => [
          ...events.filter((e) => e.isRetried).map(browserEvent),
          ...visits
            .filter((v) => v.engagedMs > 0)
            .map((v) => send(v.visitor, { type: 'engagement', engaged_ms: v.engagedMs })),
        ],
      ];
      // A step's index is its minute: IDENTIFY_MINUTE and BROWSER_EVENT_MINUTE name two of them.
      for (const [minute, step] of steps.entries()) {
        t.clock.set(new Date(timeOf(day, slot, minute)));
        await expectAccepted(step());
      }
    }
  }

  const serverEvents = data.events.filter((e) => e.origin === 'server');
  const post = (e: GenEvent) =>
    t.request({
      method: 'POST',
      url: '/v1/server/events',
      headers: bearer(apiKey),
      payload: {
        site_id: site.snippet_key,
        name: e.name,
        event_id: e.eventId,
        timestamp: new Date(timeOf(e.day, e.slot, SERVER_EVENT_MINUTE)).toISOString(),
        ...(e.visitor ? { visitor_id: e.visitor } : {}),
        ...(e.uid ? (e.uid.includes('@') ? { email: e.uid } : { user_id: e.uid }) : {}),
        ...(e.cents === null ? {} : { value: e.cents / 100, currency: e.currency }),
      },
    });
  await expectAccepted(serverEvents.map(post));
  await expectAccepted(serverEvents.filter((e) => e.isRetried).map(post));
  // PGlite runs no autovacuum, so the fresh tables would have no planner statistics: the
  // reports' queries then take seconds a page instead of milliseconds. The rows stay the same.
  await sql`analyze`.execute(t.database.db);
}
