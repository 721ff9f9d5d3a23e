import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { eventLockKey, goalSetLockId, sortedLockIds } from '../db/advisory-locks.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { newEventId, newVisitorId } from './ingest.fixtures.js';
import { type IngestRow, ingestBatch, type SiteFacts, SQL_ROW_TYPES } from './ingest.store.js';

describe('the ingest batch call (touchtrail_ingest)', () => {
  const t = useTestApp();

  const pageviewRow = (ord: number, snippetKey: string, eventId = newEventId()): IngestRow => ({
    ord,
    snippet_key: snippetKey,
    origin: 'browser',
    type: 'pageview',
    event_id: eventId,
    visitor_id: newVisitorId(),
    url: 'https://shop.example.com/',
    occurred_ms: t.clock.now().getTime(),
    received_ms: t.clock.now().getTime(),
    source_kind: 'unknown',
    session_ai_source: 'direct',
    source_name: '',
    source_key: '',
    campaign: '',
    ref: '',
  });
  const call = (facts: SiteFacts[], rows: IngestRow[]) =>
    ingestBatch(t.database.db, {
      lockIds: sortedLockIds(rows.map((row) => eventLockKey(row.snippet_key, row.event_id))),
      facts,
      rows,
      now: t.clock.now(),
      goalLimit: 200,
    });
  const factsOf = async (siteId: string): Promise<SiteFacts> =>
    t.database.db
      .selectFrom('sites')
      .select(['snippet_key', 'domain', 'cookie_apex_domain', 'currency'])
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow();

  it('answers an outcome per item, in order: recorded, duplicate, unknown site, site deleted', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const deleted = await insertSite(t, t.owner.accountId, { deleted: true });
    const facts = [await factsOf(site.id), await factsOf(deleted.id)];
    const repeated = newEventId();
    const first = await call(facts, [
      pageviewRow(1, site.snippet_key, repeated),
      pageviewRow(2, 'ttid_nosuchsite0000000000'),
      pageviewRow(3, site.snippet_key, repeated),
      pageviewRow(4, deleted.snippet_key),
      pageviewRow(5, site.snippet_key),
    ]);
    expect(first).toEqual({
      outcomes: ['recorded', 'unknown_site', 'duplicate', 'site_deleted', 'recorded'],
      staleSites: [],
    });
    const again = await call(facts, [pageviewRow(1, site.snippet_key, repeated)]);
    expect(again.outcomes).toEqual(['duplicate']);
  });

  it('writes nothing of an item whose site facts changed, and answers the current facts', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const current = await factsOf(site.id);
    const result = await call(
      [{ ...current, currency: current.currency === 'JPY' ? 'USD' : 'JPY' }],
      [pageviewRow(1, site.snippet_key)],
    );
    expect(result).toEqual({ outcomes: ['stale_site_facts'], staleSites: [current] });
    // Without any facts the site's items are stale too: that is how a process learns them.
    expect((await call([], [pageviewRow(1, site.snippet_key)])).outcomes).toEqual(['stale_site_facts']);
    const stored = await t.database.db
      .selectFrom('events')
      .select('event_id')
      .where('site_id', '=', site.id)
      .execute();
    expect(stored).toEqual([]);
  });

  it('never moves the last activity of a visit back for an item committed late', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const facts = [await factsOf(site.id)];
    const first = pageviewRow(1, site.snippet_key);
    const at = first.occurred_ms;
    await call(facts, [first]);
    const late = {
      ...pageviewRow(1, site.snippet_key),
      visitor_id: first.visitor_id,
      type: 'engagement' as const,
    };
    await call(facts, [{ ...late, occurred_ms: at - 5000, engaged_seconds: 3 }]);
    const visit = await t.database.db
      .selectFrom('visits')
      .select(['last_activity_at', 'engaged_seconds'])
      .where('site_id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(visit).toEqual({ last_activity_at: new Date(at), engaged_seconds: 3 });
  });

  it('sends rows whose fields are the columns of the SQL types that read them, in order', async () => {
    for (const [typeName, columns] of Object.entries(SQL_ROW_TYPES)) {
      const { rows } = await sql<{ name: string; type: string }>`
        select a.attname as name, format_type(a.atttypid, a.atttypmod) as type
        from pg_attribute a join pg_type t on t.typrelid = a.attrelid
        where t.typname = ${typeName} and a.attnum > 0 and not a.attisdropped
        order by a.attnum`.execute(t.database.db);
      expect({ [typeName]: Object.fromEntries(rows.map((row) => [row.name, row.type])) }).toEqual({
        [typeName]: columns,
      });
      expect(rows.map((row) => row.name)).toEqual(Object.keys(columns));
    }
  });

  it('locks the goal registry under the id earlier versions derived in Node, so both exclude each other', async () => {
    const siteId = randomUUID();
    const { rows } = await sql<{
      id: string;
    }>`select touchtrail_goals_lock_id(${siteId}::uuid)::text as id`.execute(t.database.db);
    expect(rows[0]?.id).toBe(goalSetLockId(siteId));
  });
});
