/**
 * Exports longer than one keyset page (2,000 rows), seeded straight into the database: events
 * whose times carry microseconds and tie in groups of ten across the page edges, visits that
 * tie in groups of seven, and payments that all share one time. Every row comes out exactly
 * once, in the database's own (time, id) order.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { download, ndjsonLines } from './site-export.fixtures.js';
import { EXPORT_PAGE_ROWS } from './site-export.service.js';

const EVENTS = 2 * EXPORT_PAGE_ROWS + 500;
const VISITS = EXPORT_PAGE_ROWS + 100;
const PAYMENTS = EXPORT_PAGE_ROWS + 50;
const BASE = '2026-03-10 08:00:00+00';

describe('GET /v1/sites/{siteId}/export: pages', () => {
  const t = useTestApp();

  it('reads every row once across page edges, ties and microseconds included', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const db = t.database.db;
    // The events of a group of ten share a millisecond and one microsecond past it; the groups
    // straddle the 2,000th and 4,000th rows.
    await sql`
      insert into events (site_id, event_id, type, name, visitor_id, occurred_at, received_at, url, origin)
      select ${site.id}::uuid, 'ev' || lpad(i::text, 5, '0'), 'pageview', null, 'visitor-' || (i % 97),
        ${BASE}::timestamptz + ((i + 5) / 10) * interval '1 millisecond' + interval '1 microsecond',
        ${BASE}::timestamptz, 'https://example.com/' || i, 'browser'
      from generate_series(1, ${EVENTS}) as i
    `.execute(db);
    await sql`
      insert into visits (site_id, id, visitor_id, started_at, last_activity_at, source_kind, session_ai_source, is_new)
      select ${site.id}::uuid, gen_random_uuid(), 'visitor-' || i,
        ${BASE}::timestamptz + (i / 7) * interval '1 second', ${BASE}::timestamptz + interval '1 hour',
        'unknown', 'direct', true
      from generate_series(1, ${VISITS}) as i
    `.execute(db);
    await sql`
      insert into payments (site_id, id, provider, transaction_id, kind, amount_minor, currency, paid_at, received_at, event_id)
      select ${site.id}::uuid, gen_random_uuid(), 'api', 'tx-' || i, 'payment', i, 'EUR',
        ${BASE}::timestamptz, ${BASE}::timestamptz, 'pay_seeded_' || i
      from generate_series(1, ${PAYMENTS}) as i
    `.execute(db);

    const response = await download(t, bearer(t.owner.apiKey), site.snippet_key, {
      from: '2026-03-10',
      to: '2026-03-10',
    });
    expect(response.statusCode).toBe(200);
    const lines = ndjsonLines(response.body);
    const idsOf = (record: string, field: string) =>
      lines.filter((line) => line.record === record).map((line) => String(line[field]));

    const [events, visits, payments] = await Promise.all([
      db
        .selectFrom('events')
        .select('event_id as id')
        .where('site_id', '=', site.id)
        .orderBy('occurred_at')
        .orderBy('event_id')
        .execute(),
      db
        .selectFrom('visits')
        .select('id')
        .where('site_id', '=', site.id)
        .orderBy('started_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('payments')
        .select('transaction_id as id')
        .where('site_id', '=', site.id)
        .orderBy('paid_at')
        .orderBy('payments.id')
        .execute(),
    ]);
    expect(lines.map((line) => line.record)).toEqual([
      ...Array(VISITS).fill('visit'),
      ...Array(EVENTS).fill('event'),
      ...Array(PAYMENTS).fill('payment'),
    ]);
    expect(idsOf('visit', 'id')).toEqual(visits.map((row) => row.id));
    expect(idsOf('event', 'id')).toEqual(events.map((row) => row.id));
    expect(idsOf('payment', 'transaction_id')).toEqual(payments.map((row) => row.id));
    expect(new Set(idsOf('event', 'id')).size).toBe(EVENTS);
  });
});
