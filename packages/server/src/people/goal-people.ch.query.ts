/**
 * The people behind a goal's completions read from ClickHouse, as goal-people.query.ts reads
 * them from PostgreSQL: completions mapped to people (a visitor id to its earliest link's person
 * key, or itself; a server event with only a person key to that key), a person counted only with
 * a visit of theirs overlapping the window (looked up only for people whose completions all came
 * from the server), latest completion first, then person id in byte order.
 */
import type { ClickHouse } from '../clickhouse/connection.js';
import type { PersonId } from '../identity/identity.js';
import { chMoment, chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { type ChFragment, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, personLinks, personOf, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import type { GoalPeoplePage, GoalPeopleQuery } from './goal-people.query.js';

export async function chFindGoalPeople(
  ch: ClickHouse,
  scope: ChScope,
  q: Omit<GoalPeopleQuery, 'siteId'>,
): Promise<GoalPeoplePage> {
  const completions = chSql`type = 'event' AND name = ${q.goalName}
    AND occurred_at >= ${chTime(q.start)} AND occurred_at < ${chTime(q.end)}`;
  const events = siteRows(scope, 'events', completions);
  const completers = chSql`(
    SELECT person, max(last_at) AS last_completed_at, max(had_visit) AS had_visit FROM (
      SELECT ${personOf('b.visitor_id')} AS person, b.last_at AS last_at, b.had_visit AS had_visit
      FROM (
        SELECT assumeNotNull(visitor_id) AS visitor_id, max(occurred_at) AS last_at,
               max(origin = 'browser') AS had_visit
        FROM ${events} WHERE ${completions} AND visitor_id IS NOT NULL
        GROUP BY visitor_id
      ) AS b
      LEFT JOIN ${personLinks(scope)} AS pl ON pl.visitor_id = b.visitor_id
      UNION ALL
      SELECT concat('p:', assumeNotNull(person_key)), max(occurred_at), toUInt8(0)
      FROM ${events} WHERE ${completions} AND visitor_id IS NULL AND person_key IS NOT NULL
      GROUP BY person_key
    ) GROUP BY person)`;
  const overlapping = chSql`last_activity_at >= ${chTime(q.start)} AND started_at < ${chTime(q.end)}`;
  // The visitor ids of the people with server completions only, whose visits decide.
  const unproven = chSql`(
    SELECT substring(person, 3) FROM completers WHERE had_visit = 0 AND startsWith(person, 'v:')
    UNION ALL
    SELECT visitor_id FROM ${personLinks(scope)}
    WHERE concat('p:', person_key) IN (SELECT person FROM completers WHERE had_visit = 0 AND startsWith(person, 'p:')))`;
  const eligible = chSql`(had_visit = 1 OR person IN (
    SELECT ${personOf('v.visitor_id')} FROM ${siteRows(scope, 'visits', overlapping)} AS v
    LEFT JOIN ${personLinks(scope)} AS pl ON pl.visitor_id = v.visitor_id
    WHERE ${overlapping} AND v.visitor_id IN ${unproven}))`;
  const over = (select: ChFragment) => chSql`WITH completers AS ${completers} ${select}`;
  const rows = await chRows(
    ch,
    over(chSql`SELECT person, toString(last_completed_at) AS last_at, count() OVER () AS total_count
      FROM completers WHERE ${eligible}
      ORDER BY last_completed_at DESC, person ASC
      LIMIT ${q.limit} OFFSET ${q.offset}`),
  );
  const people = rows.map((row) => ({
    person: row.person as PersonId,
    last_completed_at: chMoment(row.last_at),
  }));
  if (rows[0]) return { people, totalCount: Number(rows[0].total_count) };
  // A page past the end still tells how many there are.
  const [count] = await chRows(ch, over(chSql`SELECT count() AS n FROM completers WHERE ${eligible}`));
  return { people, totalCount: Number(count?.n ?? 0) };
}
