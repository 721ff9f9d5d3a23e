/**
 * One page of the people listing (GET /v1/visitors): everyone with a visit in the window that
 * matches the filters, merged into people before anything is cut (identity/identity.ts: a
 * visitor id belongs to its earliest link's person key, or is a person on its own), each with
 * one sort value, ordered by it (largest first, then person id in byte order) and cut after a
 * keyset. The rows are then summarised by people-summaries.ts, whose figures these sort values
 * repeat: `visits` is the row's `session_count`, `last_seen` its `last_seen`, `revenue` its
 * `revenue.total_cents` (people-revenue.sql.ts). A person with more visitor ids than a row
 * reads (rule 5) is sorted by all of them, so their row's figure may be lower than its place.
 *
 * The visits read are those started in the window or up to a day before it and still active in
 * it (visits_started_idx); events, for `revenue`, those in the window (events_site_time_idx).
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import type { PersonId } from '../identity/identity.js';
import { personLinks } from '../identity/identity.sql.js';
import { DAY_MS } from '../lib/clock.js';
import type { PeopleCursor } from './people-cursor.js';
import { revenueByPerson } from './people-revenue.sql.js';

export const PEOPLE_SORTS = ['last_seen', 'visits', 'revenue'] as const;
export type PeopleSort = (typeof PEOPLE_SORTS)[number];

/**
 * How long before the window a visit may have started and still be found overlapping it. A
 * visit ends after 30 idle minutes, so only one kept busy all day and night is missed; finding
 * those too would mean reading every earlier visit of the site.
 */
export const LONGEST_VISIT_FOUND_MS = DAY_MS;

export interface PeoplePageQuery {
  siteId: string;
  currency: string;
  start: Date;
  end: Date;
  /** A condition over `visits v` (reporting/filter.sql.ts); a person needs one such visit. */
  visitMatches: RawBuilder<boolean>;
  sort: PeopleSort;
  /** The last person of the previous page: this page starts after them. */
  after: PeopleCursor | null;
  limit: number;
}

export interface ListedPerson {
  person: PersonId;
  /** The sort value, a whole number in decimal (microseconds since 1970 for `last_seen`). */
  sortValue: string;
}

/** Up to `limit` people in listing order after `after`. */
export async function findPeoplePage(db: Kysely<DB>, q: PeoplePageQuery): Promise<ListedPerson[]> {
  const links = personLinks(q.siteId);
  const { rows } = await sql<{ person: PersonId; sort_text: string }>`
    with listed as (
      select coalesce('p:' || l.person_key, 'v:' || v.visitor_id) as person,
             count(*) as visits, max(v.last_activity_at) as last_active
      from visits v
      left join ${links} l on l.visitor_id = v.visitor_id
      where v.site_id = ${q.siteId}
        and v.started_at >= ${new Date(q.start.getTime() - LONGEST_VISIT_FOUND_MS)}
        and v.started_at < ${q.end} and v.last_activity_at >= ${q.start}
      group by 1
      having bool_or(${q.visitMatches})
    )${sortSource(q, links)}
    select person, sort_value::text as sort_text
    from ranked
    ${q.after ? sql`where sort_value < ${q.after.value}::bigint or (sort_value = ${q.after.value}::bigint and person collate "C" > ${q.after.person})` : sql``}
    order by sort_value desc, person collate "C"
    limit ${q.limit}
  `.execute(db);
  return rows.map((row) => ({ person: row.person, sortValue: row.sort_text }));
}

/** The `ranked (person, sort_value)` table expression of a sort, after `listed`. */
function sortSource(q: PeoplePageQuery, links: RawBuilder<unknown>): RawBuilder<unknown> {
  switch (q.sort) {
    case 'visits':
      return sql`, ranked as (select person, visits::bigint as sort_value from listed)`;
    case 'revenue':
      // A union grouped once rather than a join: no plan can then re-read one side per row.
      return sql`,
        ranked as (
          select person, sum(total_minor)::bigint as sort_value
          from (
            select person, 0 as total_minor, true as is_listed from listed
            union all
            select person, total_minor, false from ${revenueByPerson({ ...q, personLinks: links })} r
          ) amounts
          group by person
          having bool_or(is_listed)
        )`;
    case 'last_seen':
      // The row's last_seen is the latest sighting ever of any of the person's visitor ids.
      return sql`,
        members as (
          select p.person, substr(p.person, 3) as visitor_id from listed p where p.person like 'v:%'
          union all
          select p.person, l.visitor_id
          from listed p join ${links} l on l.person_key = substr(p.person, 3)
          where p.person like 'p:%'
        ),
        ranked as (
          select person, floor(extract(epoch from max(seen_at)) * 1000000)::bigint as sort_value
          from (
            select person, last_active as seen_at from listed
            union all
            select m.person, s.last_seen
            from members m join visitors s on s.site_id = ${q.siteId} and s.visitor_id = m.visitor_id
          ) sightings
          group by person
        )`;
  }
}
