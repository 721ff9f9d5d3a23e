/**
 * The identity rules of identity.ts as SQL pieces that the queries of other features compose
 * (visitor reports, goal people, attribution, the conversion listing). Not a store: it owns no
 * table's writes, only the one reading of `identity_links` every caller shares. Each takes
 * plain values (sent as parameters) or column references (`sql.ref('e.site_id')`), so one piece
 * serves a query about one conversion and a query joining many.
 */
import { type Expression, type RawBuilder, sql } from 'kysely';
import { LOOKBACK_DAYS } from './identity.js';

type Value<T> = T | Expression<T>;

/** The look-back as an interval of hours: a fixed length, whatever the session's time zone. */
const LOOKBACK = sql`(interval '1 hour' * ${sql.lit(LOOKBACK_DAYS * 24)})`;

/**
 * Each linked visitor id of the site with the person key it belongs to: that of its earliest
 * link (equal times: the key first in byte order), and when that link was made. A table
 * expression with columns site_id, person_key, visitor_id, created_at; a visitor id not in it
 * is a person on its own.
 */
export function personLinks(siteId: Value<string>): RawBuilder<unknown> {
  return sql`(
    select l.site_id, l.person_key, l.visitor_id, l.created_at
    from identity_links l
    where l.site_id = ${siteId}
      and not exists (
        select 1 from identity_links earlier
        where earlier.site_id = l.site_id and earlier.visitor_id = l.visitor_id
          and (earlier.created_at < l.created_at
            or (earlier.created_at = l.created_at
              and earlier.person_key collate "C" < l.person_key collate "C"))
      )
  )`;
}

/**
 * Events of these people: an event with a visitor id belongs to that visitor id, one with only a
 * person key (a server event) to that key. A condition on the columns of `events`.
 */
export function isEventOfPeople(q: {
  visitorIds: readonly string[];
  personKeys: readonly string[];
}): RawBuilder<boolean> {
  const byVisitor = q.visitorIds.length ? sql`visitor_id in (${sql.join(q.visitorIds)})` : sql`false`;
  const byKey = q.personKeys.length
    ? sql`(visitor_id is null and person_key in (${sql.join(q.personKeys)}))`
    : sql`false`;
  return sql<boolean>`(${byVisitor} or ${byKey})`;
}

export interface ConversionPerson {
  siteId: Value<string>;
  visitorId: Value<string | null>;
  personKey: Value<string | null>;
}

/**
 * The visitor ids whose visits count toward a conversion: its own, every one sharing any person
 * key with it, and every one linked to its person key. A subquery of one column, visitor_id.
 */
export function conversionVisitorIds(c: ConversionPerson): RawBuilder<unknown> {
  return sql`(
    select ${c.visitorId}::text as visitor_id where ${c.visitorId}::text is not null
    union
    select other.visitor_id from identity_links mine
    join identity_links other on other.site_id = mine.site_id and other.person_key = mine.person_key
    where mine.site_id = ${c.siteId} and mine.visitor_id = ${c.visitorId}::text
    union
    select l.visitor_id from identity_links l
    where l.site_id = ${c.siteId} and l.person_key = ${c.personKey}::text
  )`;
}

/**
 * The visits that count toward a conversion at `at`: those of `conversionVisitorIds` started
 * within the look-back up to it (both ends included). A table expression with the columns of
 * `visits`.
 */
export function visitsTowardConversion(c: ConversionPerson & { at: Value<Date> }): RawBuilder<unknown> {
  return sql`(
    select v.* from visits v
    where v.site_id = ${c.siteId}
      and v.visitor_id in ${conversionVisitorIds(c)}
      and v.started_at >= ${c.at}::timestamptz - ${LOOKBACK}
      and v.started_at <= ${c.at}::timestamptz
  )`;
}
