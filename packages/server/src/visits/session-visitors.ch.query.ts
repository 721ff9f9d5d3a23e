/**
 * The earliest visit of the person behind each visitor id, from ClickHouse: what
 * session-visitors.query.ts reads from PostgreSQL (the person as identity/identity.ts names
 * them, their first visit by start then id), for the `vh_` handles of the listed sessions.
 */
import type { ClickHouse } from '../clickhouse/connection.js';
import { chRows } from '../reporting/clickhouse/ch-read.js';
import { chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, personLinks, personOf, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';

/** The earliest visit of the person behind each visitor id, by visitor id. */
export async function chFindPersonFirstVisits(
  ch: ClickHouse,
  scope: ChScope,
  visitorIds: readonly string[],
): Promise<Map<string, string>> {
  if (visitorIds.length === 0) return new Map();
  const rows = await chRows(
    ch,
    chSql`WITH page AS (
        SELECT p.visitor_id AS visitor_id, ${personOf('p.visitor_id')} AS person
        FROM (SELECT arrayJoin(${[...visitorIds]}) AS visitor_id) AS p
        LEFT JOIN ${personLinks(scope)} AS pl ON pl.visitor_id = p.visitor_id
      )
      SELECT page.visitor_id AS visitor_id, earliest.first_visit_id AS first_visit_id
      FROM page
      INNER JOIN (
        SELECT ${personOf('v.visitor_id')} AS person,
          argMin(toString(v.id), (v.started_at, toString(v.id))) AS first_visit_id
        FROM ${siteRows(scope, 'visits')} AS v
        LEFT JOIN ${personLinks(scope)} AS pl ON pl.visitor_id = v.visitor_id
        WHERE person IN (SELECT person FROM page)
        GROUP BY person
      ) AS earliest ON earliest.person = page.person`,
  );
  return new Map(rows.map((row) => [String(row.visitor_id), String(row.first_visit_id)]));
}
