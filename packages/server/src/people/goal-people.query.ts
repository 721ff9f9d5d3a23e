/**
 * The people behind a goal's completions in a window, one page of them plus how many there are
 * (interface §4.1, visitors rules 1–4). Completions are mapped to people before counting or
 * cutting the page: a completion's visitor id belongs to its person (identity/identity.ts: its
 * earliest link's person key, or itself when never linked); a server event with only a person
 * key belongs to that key. A person counts only with a visit of theirs overlapping the window.
 *
 * A completion sent by the browser always lies inside a visit (ingest attaches it to the open
 * visit or starts one at its time), so its person has a visit in the window without looking;
 * only people whose completions all came from the server are checked against their visits.
 * The cost grows with the goal's completions in the window, not with the site's traffic.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import type { PersonId } from '../identity/identity.js';
import { personLinks } from '../identity/identity.sql.js';

export interface GoalPeopleQuery {
  siteId: string;
  goalName: string;
  start: Date;
  end: Date;
  limit: number;
  offset: number;
}

export interface GoalPerson {
  person: PersonId;
  last_completed_at: Date;
}

export interface GoalPeoplePage {
  people: GoalPerson[];
  totalCount: number;
}

/** Ordered by latest completion, newest first, then person id (byte order, same on every engine). */
export async function findGoalPeople(db: Kysely<DB>, q: GoalPeopleQuery): Promise<GoalPeoplePage> {
  const { rows } = await sql<{
    person: PersonId | null;
    last_completed_at: Date | null;
    total_count: number;
  }>`
    with by_visitor as (
      select visitor_id, max(occurred_at) as last_completed_at,
             bool_or(origin = 'browser') as had_visit
      from events
      where site_id = ${q.siteId} and type = 'event' and name = ${q.goalName}
        and occurred_at >= ${q.start} and occurred_at < ${q.end} and visitor_id is not null
      group by visitor_id
    ),
    by_key as (
      select person_key, max(occurred_at) as last_completed_at
      from events
      where site_id = ${q.siteId} and type = 'event' and name = ${q.goalName}
        and occurred_at >= ${q.start} and occurred_at < ${q.end}
        and visitor_id is null and person_key is not null
      group by person_key
    ),
    first_links as (
      select l.visitor_id, l.person_key
      from ${personLinks(q.siteId)} l
      join by_visitor b on b.visitor_id = l.visitor_id
    ),
    completers as (
      select person, max(last_completed_at) as last_completed_at, bool_or(had_visit) as had_visit
      from (
        select coalesce('p:' || f.person_key, 'v:' || b.visitor_id) as person, b.last_completed_at, b.had_visit
        from by_visitor b
        left join first_links f on f.visitor_id = b.visitor_id
        union all
        select 'p:' || person_key, last_completed_at, false from by_key
      ) mapped
      group by person
    ),
    eligible as (
      select p.person, p.last_completed_at
      from completers p
      where p.had_visit
        or exists (
          select 1 from visits v
          where p.person like 'v:%' and v.site_id = ${q.siteId} and v.visitor_id = substr(p.person, 3)
            and v.last_activity_at >= ${q.start} and v.started_at < ${q.end}
        )
        or exists (
          select 1
          from ${personLinks(q.siteId)} l
          join visits v on v.site_id = l.site_id and v.visitor_id = l.visitor_id
          where p.person like 'p:%' and l.person_key = substr(p.person, 3)
            and v.last_activity_at >= ${q.start} and v.started_at < ${q.end}
        )
    )
    select page.person, page.last_completed_at, total.total_count
    from (select count(*) as total_count from eligible) total
    left join lateral (
      select person, last_completed_at
      from eligible
      order by last_completed_at desc, person collate "C"
      limit ${q.limit} offset ${q.offset}
    ) page on true
  `.execute(db);
  const people = rows.flatMap((row) =>
    row.person && row.last_completed_at
      ? [{ person: row.person, last_completed_at: row.last_completed_at }]
      : [],
  );
  return { people, totalCount: Number(rows[0]?.total_count ?? 0) };
}
