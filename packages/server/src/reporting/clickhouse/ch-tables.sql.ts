/**
 * The traffic a ClickHouse read sees: each table's copied rows (latest version, `FINAL`) of the
 * site, less those with a newer version not yet copied, plus the rows not yet copied
 * (traffic-tail.query.ts) read as a table of the same shape. So a report equals what
 * PostgreSQL alone would answer at that moment.
 */
import { ROW_KEY_SQL, rowKeyOf, structureOf } from '../../clickhouse/traffic-columns.js';
import { type ChFragment, chRaw, chSql, typed } from './ch-sql.js';
import type { TailTable, TrafficTail } from './traffic-tail.query.js';

export interface ChScope {
  database: string;
  siteId: string;
  tail: TrafficTail;
}

/**
 * The site's rows of `table`; `where` narrows the copied rows before `FINAL` (a time range), and
 * the caller applies it again over the union.
 */
export function siteRows(scope: ChScope, table: TailTable, where: ChFragment = chRaw('1')): ChFragment {
  const tail = scope.tail.rows[table];
  const site = typed(scope.siteId, 'UUID');
  // Rows with a newer version not yet copied, and rows deleted in PostgreSQL but maybe not yet here.
  const hidden = [...tail.map((row) => rowKeyOf(table, row)), ...scope.tail.deleted[table]];
  const copied = chSql`SELECT * FROM ${chRaw(`${scope.database}.${table}`)} FINAL
    WHERE site_id = ${site} AND ${where}
    ${hidden.length ? chSql`AND NOT has(${hidden}, ${chRaw(ROW_KEY_SQL[table])})` : chRaw('')}`;
  if (tail.length === 0) return chSql`(${copied})`;
  const rows = tail.map((row) => JSON.stringify(row)).join('\n');
  return chSql`(${copied}
    UNION ALL
    SELECT * FROM format(JSONEachRow, ${structureOf(table)}, ${rows}) WHERE ${where})`;
}

/**
 * Each linked visitor id of the site with its person key: that of its earliest link (equal
 * times: the key first in byte order), as identity/identity.sql.ts `personLinks` reads it.
 */
export const personLinks = (scope: ChScope) => chSql`(
  SELECT visitor_id, argMin(person_key, (created_at, person_key)) AS person_key
  FROM ${siteRows(scope, 'identity_links')}
  GROUP BY visitor_id)`;

/** The person of a visitor id column joined to `pl` (personLinks): as personSql reads it. */
export const personOf = (visitorId: string) =>
  chRaw(
    `multiIf(pl.person_key != '', concat('p:', pl.person_key), ${visitorId} IS NULL, NULL, concat('v:', assumeNotNull(${visitorId})))`,
  );
