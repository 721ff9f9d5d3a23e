/**
 * Where the session listing and detail read their traffic: ClickHouse when it is configured and
 * can answer (reporting/clickhouse/ch-read.ts: the visits, their pageviews, their people's first
 * visits), else PostgreSQL. PostgreSQL always adds what ClickHouse does not hold: conversions,
 * since a payment is tied to its visit there (visit-conversions.sql.ts), and the `ref` tag,
 * which is not copied.
 */
import type { Readers } from '../reporting/clickhouse/ch-read.js';
import { readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { rangeInstants } from '../reporting/grain.sql.js';
import { chFindSessionRow, chListSessionRows, type SessionTraffic } from './session-rows.ch.query.js';
import {
  findPostgresOnlyFields,
  findSessionRow,
  listSessionRows,
  type SessionPageQuery,
  type SessionRow,
} from './session-rows.query.js';
import { chListTrailPageviews, mergeTrail } from './session-trail.ch.query.js';
import { listTrailConversions, listTrailRows, type TrailRow } from './session-trail.query.js';
import { chFindPersonFirstVisits } from './session-visitors.ch.query.js';
import { findPersonFirstVisits } from './session-visitors.query.js';

/** Sessions with the earliest visit of each one's person, by visitor id (session-visitors.query.ts). */
export interface SessionsRead {
  rows: SessionRow[];
  firstVisits: Map<string, string>;
}

const visitorIdsOf = (rows: { visitor_id: string }[]) => [...new Set(rows.map((row) => row.visitor_id))];

async function withPostgresFields(readers: Readers, siteId: string, rows: SessionTraffic[]) {
  const fields = await findPostgresOnlyFields(
    readers.db,
    siteId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ref: null, conversions: 0, ...row, ...fields.get(row.id) }));
}

/** One page of the listing (session-rows.query.ts `listSessionRows`). */
export async function readSessionPage(readers: Readers, q: SessionPageQuery): Promise<SessionsRead> {
  const range = await rangeInstants(readers.db, q);
  const fromClickHouse = await readClickHouse(readers, q.siteId, range.start, async (ch, scope) => {
    const rows = await chListSessionRows(ch, scope, q, range);
    if (!rows) return null;
    return { rows, firstVisits: await chFindPersonFirstVisits(ch, scope, visitorIdsOf(rows)) };
  });
  if (fromClickHouse)
    return {
      rows: await withPostgresFields(readers, q.siteId, fromClickHouse.rows),
      firstVisits: fromClickHouse.firstVisits,
    };
  const rows = await listSessionRows(readers.db, q);
  return { rows, firstVisits: await findPersonFirstVisits(readers.db, q.siteId, visitorIdsOf(rows)) };
}

/** One session with its first `trailLimit` trail steps, or null when the site has no such visit. */
export async function readSession(
  readers: Readers,
  q: { siteId: string; id: string; trailLimit: number },
): Promise<{ row: SessionRow; trail: TrailRow[]; firstVisits: Map<string, string> } | null> {
  // `found` null: ClickHouse answered that the site has no such visit.
  const fromClickHouse = await readClickHouse(readers, q.siteId, null, async (ch, scope) => {
    const { session } = await chFindSessionRow(ch, scope, q.id);
    if (!session) return { found: null };
    const [pageviews, firstVisits] = await Promise.all([
      chListTrailPageviews(ch, scope, { visitId: session.id, limit: q.trailLimit }),
      chFindPersonFirstVisits(ch, scope, [session.visitor_id]),
    ]);
    return { found: { session, pageviews, firstVisits } };
  });
  if (fromClickHouse) {
    const { found } = fromClickHouse;
    if (!found) return null;
    const [[row], conversions] = await Promise.all([
      withPostgresFields(readers, q.siteId, [found.session]),
      listTrailConversions(readers.db, { siteId: q.siteId, visitId: found.session.id, limit: q.trailLimit }),
    ]);
    const trail = mergeTrail(found.pageviews, conversions, q.trailLimit);
    return { row: row as SessionRow, trail, firstVisits: found.firstVisits };
  }
  const row = await findSessionRow(readers.db, q.siteId, q.id);
  if (!row) return null;
  const [trail, firstVisits] = await Promise.all([
    listTrailRows(readers.db, { siteId: q.siteId, visitId: row.id, limit: q.trailLimit }),
    findPersonFirstVisits(readers.db, q.siteId, [row.visitor_id]),
  ]);
  return { row, trail, firstVisits };
}
