/**
 * The event listing and names read from ClickHouse equal PostgreSQL's, over the traffic of
 * events.dataset.ts: first with everything copied, then with the later half sent after copying
 * (uncopied rows read from PostgreSQL beside ClickHouse's). Every filter, each kind, a person by
 * key and by visitor id, and paging two rows at a time through events sharing one instant.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouse } from '../clickhouse/connection.js';
import { readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { filterSql } from '../reporting/filter.sql.js';
import type { Filter } from '../reporting/filters.js';
import { useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { rowsNotCopied } from '../test/clickhouse-lag.query.js';
import { insertSite } from '../test/factories.js';
import { chCountEventNames } from './clickhouse/ch-event-names.query.js';
import { type ChEventPageQuery, chListEventRows } from './clickhouse/ch-event-rows.query.js';
import { countEventNames } from './event-names.query.js';
import type { Person } from './event-people.js';
import { listEventRows } from './event-rows.query.js';
import { EVENT_TYPES } from './event-types.js';
import { buildDataset } from './events.dataset.js';

const WINDOW = { start: new Date('2026-03-01T00:00:00Z'), end: new Date('2026-03-13T00:00:00Z') };

describe.runIf(chdbInstalled)('events from ClickHouse and from PostgreSQL', () => {
  const t = useTestApp({}, { clickhouse: true });
  let siteId: string;
  let requests: ReturnType<typeof buildDataset>['requests'];
  const failures: unknown[] = [];

  beforeAll(async () => {
    const site = await insertSite(t, t.owner.accountId);
    const other = await insertSite(t, t.owner.accountId);
    siteId = site.id;
    requests = buildDataset(site, other, t.owner.apiKey).requests;
  });

  const send = async (part: typeof requests) => {
    for (const request of part) {
      t.clock.set(request.at);
      const response = await request.send(t);
      expect(response.statusCode, response.body).toBe(202);
    }
  };

  const shipper = () => {
    const engine = t.app.services.clickhouseEngine;
    if (!engine) throw new Error('the test app runs without ClickHouse');
    return engine.shipper;
  };
  const readers = () => ({
    db: t.database.db,
    clickhouse: { ch: t.clickhouse as ClickHouse, onFailure: (error: unknown) => failures.push(error) },
  });

  /** The page from both engines: ClickHouse must answer, and alike. */
  async function samePage(q: Omit<ChEventPageQuery, 'siteId' | 'start' | 'end'>) {
    const query = { siteId, ...WINDOW, ...q };
    const visitCondition = q.visitFilters.length
      ? filterSql({ op: 'and', filters: q.visitFilters })
      : undefined;
    const byPostgres = await listEventRows(t.database.db, { ...query, visitCondition });
    const byClickHouse = await readClickHouse(readers(), siteId, null, (ch, scope) =>
      chListEventRows(ch, scope, t.database.db, query),
    );
    expect(failures).toEqual([]);
    expect(byClickHouse, JSON.stringify(q)).not.toBeNull();
    expect(byClickHouse, JSON.stringify(q)).toEqual(byPostgres);
    return byPostgres;
  }

  async function people(): Promise<Person[]> {
    const rows = await t.database.db
      .selectFrom('events')
      .select(['visitor_id', 'person_key'])
      .where('site_id', '=', siteId)
      .distinct()
      .execute();
    const found: Person[] = [];
    for (const row of rows) {
      if (row.visitor_id) found.push({ visitorId: row.visitor_id });
      if (row.person_key) found.push({ personKey: row.person_key });
    }
    return found;
  }

  async function everyReadAgrees() {
    const none: Filter[] = [];
    const all = await samePage({ limit: 100, visitFilters: none });
    expect(all.length).toBeGreaterThan(10);
    for (const type of EVENT_TYPES) await samePage({ type, limit: 100, visitFilters: none });
    for (const name of ['pageview', 'download', 'signup'])
      await samePage({ name, limit: 100, visitFilters: none });
    for (const person of await people()) await samePage({ person, limit: 100, visitFilters: none });
    const session = all.find((row) => row.type === 'pageview')?.visit_id as string;
    await samePage({ type: 'pageview', visitId: session, limit: 100, visitFilters: none });
    const ai: Filter = { op: 'is', dimension: 'visit:channel', values: ['ai'] };
    await samePage({ type: 'pageview', limit: 100, visitFilters: [ai] });
    // Custom, server and payment rows of a visit or channel: read from PostgreSQL, merged.
    const fromAi = await samePage({ limit: 100, visitFilters: [ai] });
    expect(new Set(fromAi.map((row) => row.type)).size).toBeGreaterThan(1);
    await samePage({ type: 'payment', limit: 100, visitFilters: [ai] });
    await samePage({ visitId: session, limit: 100, visitFilters: none });
    const paid = all.find((row) => row.type === 'payment' && row.visit_id)?.visit_id;
    if (paid) await samePage({ visitId: paid, limit: 100, visitFilters: none });
    for (let pages = 0, cursor: ChEventPageQuery['before']; pages < 100; pages++) {
      const page = await samePage({ before: cursor, limit: 3, visitFilters: [ai] });
      const last = page.at(-1);
      if (page.length < 3 || !last) break;
      cursor = { at: last.cursor_at, eventId: last.event_id };
    }
    // Two at a time, with the cursor PostgreSQL hands out.
    let before: ChEventPageQuery['before'];
    for (let pages = 0; pages < 100; pages++) {
      const page = await samePage({ before, limit: 2, visitFilters: none });
      const last = page.at(-1);
      if (page.length < 2 || !last) break;
      before = { at: last.cursor_at, eventId: last.event_id };
    }
    for (const type of [undefined, 'custom', 'server', 'payment'] as const) {
      const q = { siteId, ...WINDOW, type };
      const byClickHouse = await readClickHouse(readers(), siteId, null, (ch, scope) =>
        chCountEventNames(ch, scope, q),
      );
      expect(byClickHouse).not.toBeNull();
      expect(byClickHouse).toEqual(await countEventNames(t.database.db, q));
    }
  }

  it('alike with everything copied', async () => {
    await send(requests);
    await copyEverything(t.database.db, shipper());
    expect(await rowsNotCopied(t.database.db)).toBe(0);
    await everyReadAgrees();
  }, 120_000);

  it('alike with the latest rows not yet copied', async () => {
    // Another site's copy of the same traffic, sent after copying: all of it is uncopied.
    const site = await insertSite(t, t.owner.accountId);
    const other = await insertSite(t, t.owner.accountId);
    const later = buildDataset(site, other, t.owner.apiKey).requests;
    siteId = site.id;
    await send(later.slice(0, Math.floor(later.length / 2)));
    await copyEverything(t.database.db, shipper());
    await send(later.slice(Math.floor(later.length / 2)));
    expect(await rowsNotCopied(t.database.db)).toBeGreaterThan(0);
    await everyReadAgrees();
  }, 120_000);
});
