/** SQL of the events and pageviews one person (event-people.ts) sent, over `events e`. */
import { type RawBuilder, sql } from 'kysely';
import { isEventOfPeople, personLinks } from '../identity/identity.sql.js';
import type { Person } from './event-people.js';

/** Events of `events e` sent by this person. */
export function isEventOfPersonSql(siteId: string, person: Person): RawBuilder<boolean> {
  if ('visitorId' in person) return isEventOfPeople({ visitorIds: [person.visitorId], personKeys: [] });
  return sql<boolean>`(e.visitor_id in (
      select l.visitor_id from ${personLinks(siteId)} l where l.person_key = ${person.personKey})
    or (e.visitor_id is null and e.person_key = ${person.personKey}))`;
}

/**
 * Pageviews of `events e` sent by this person, found through their visits: a pageview always
 * belongs to a visit of its own visitor id, and (site_id, visit_id) is indexed for pageviews
 * where (site_id, visitor_id) is not.
 */
export function isPageviewOfPersonSql(siteId: string, person: Person): RawBuilder<boolean> {
  const visitorIds =
    'visitorId' in person
      ? sql`(${person.visitorId})`
      : sql`(select l.visitor_id from ${personLinks(siteId)} l where l.person_key = ${person.personKey})`;
  return sql<boolean>`e.visit_id in (
    select v.id from visits v where v.site_id = ${siteId} and v.visitor_id in ${visitorIds})`;
}
