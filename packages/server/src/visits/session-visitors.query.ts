/**
 * Who each listed visit's visitor is, as a `vh_` handle names them: the person of the visitor id
 * (its earliest identity link's person key, or the visitor id alone; identity/identity.ts) and
 * that person's earliest visit, which the handle encodes (people/visitor-handles.ts). So a
 * session shows the same handle as the person's row in the visitor reports, and the handle opens
 * their profile.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { personLinks } from '../identity/identity.sql.js';

/** The earliest visit of the person behind each visitor id, by visitor id. */
export async function findPersonFirstVisits(
  db: Kysely<DB>,
  siteId: string,
  visitorIds: readonly string[],
): Promise<Map<string, string>> {
  if (visitorIds.length === 0) return new Map();
  const { rows } = await sql<{ visitor_id: string; first_visit_id: string }>`
    select page.visitor_id, earliest.id as first_visit_id
    from (values ${sql.join(visitorIds.map((id) => sql`(${id}::text)`))}) as page(visitor_id)
    left join ${personLinks(siteId)} own on own.visitor_id = page.visitor_id
    cross join lateral (
      select v.id from visits v
      where v.site_id = ${siteId}
        and v.visitor_id in (
          select page.visitor_id where own.person_key is null
          union all
          select member.visitor_id from ${personLinks(siteId)} member
          where own.person_key is not null and member.person_key = own.person_key
        )
      order by v.started_at, v.id
      limit 1
    ) earliest
  `.execute(db);
  return new Map(rows.map((row) => [row.visitor_id, row.first_visit_id]));
}
