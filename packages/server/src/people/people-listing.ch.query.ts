/**
 * One page of the people listing read from ClickHouse, as people-listing.query.ts reads it from
 * PostgreSQL: the same visits (started in the window or up to a day before it, still active in
 * it), merged into people by their earliest identity link, one sort value each, the same order
 * and keyset. Only the `visits` sort is answered here: `last_seen` reads the `visitors` table
 * and `revenue` reads money, which both stay in PostgreSQL (null: PostgreSQL answers).
 */
import type { ClickHouse } from '../clickhouse/connection.js';
import type { PersonId } from '../identity/identity.js';
import { chFilter } from '../reporting/clickhouse/ch-columns.sql.js';
import { chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { chRaw, chSql, typed } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, personLinks, personOf, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import type { Filter } from '../reporting/filters.js';
import { type ListedPerson, LONGEST_VISIT_FOUND_MS, type PeoplePageQuery } from './people-listing.query.js';

/** The listing's query with its filter as a tree, which ClickHouse compiles itself. */
export type ChPeoplePageQuery = Omit<PeoplePageQuery, 'visitMatches' | 'currency'> & { filter: Filter };

export async function chFindPeoplePage(
  ch: ClickHouse,
  scope: ChScope,
  q: ChPeoplePageQuery,
): Promise<ListedPerson[] | null> {
  if (q.sort !== 'visits') return null;
  const matches = chFilter(q.filter, 'visits', scope);
  if (!matches) return null;
  const overlapping = chSql`started_at >= ${chTime(new Date(q.start.getTime() - LONGEST_VISIT_FOUND_MS))}
    AND started_at < ${chTime(q.end)} AND last_activity_at >= ${chTime(q.start)}`;
  const after = q.after
    ? chSql`WHERE sort_value < ${typed(q.after.value, 'Int64')}
        OR (sort_value = ${typed(q.after.value, 'Int64')} AND person > ${q.after.person})`
    : chRaw('');
  const rows = await chRows(
    ch,
    chSql`SELECT person, toString(sort_value) AS sort_text FROM (
      SELECT ${personOf('v.visitor_id')} AS person, count() AS sort_value
      FROM ${siteRows(scope, 'visits', overlapping)} AS v
      LEFT JOIN ${personLinks(scope)} AS pl ON pl.visitor_id = v.visitor_id
      WHERE ${overlapping}
      GROUP BY person
      HAVING countIf(${matches}) > 0
    )
    ${after}
    ORDER BY sort_value DESC, person ASC
    LIMIT ${q.limit}`,
  );
  return rows.map((row) => ({ person: row.person as PersonId, sortValue: String(row.sort_text) }));
}
