/**
 * SQL of the visitor reports besides the report queries: who a person is (their visitor ids, the
 * person behind a visit), first sightings, and the lists of a profile.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { VisitorsTable, VisitsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';
import { type PersonId, personOfKey, personOfVisitor } from '../identity/identity.js';
import { isEventOfPeople, personLinks } from '../identity/identity.sql.js';
import { perEuroOn, rateDayOn } from '../rates/exchange.sql.js';
import { VISIT_FACT_COLUMNS, type VisitFacts } from './window-visit-summaries.query.js';

interface Window {
  start: Date;
  end: Date;
}

/**
 * The visitor ids of each person key (identity/identity.ts), at most `perKey` each: ids with a
 * visit in the window first, then the most recently linked. Callers ask for one more than their
 * cap to learn that a person was cut.
 */
export async function findPersonVisitorIds(
  db: Kysely<DB>,
  q: Window & { siteId: string; personKeys: readonly string[]; perKey: number },
): Promise<Map<string, string[]>> {
  const members = new Map<string, string[]>();
  if (q.personKeys.length === 0) return members;
  const { rows } = await sql<{ person_key: string; visitor_id: string }>`
    select person_key, visitor_id from (
      select l.person_key, l.visitor_id,
             row_number() over (
               partition by l.person_key
               order by exists (
                   select 1 from visits v
                   where v.site_id = l.site_id and v.visitor_id = l.visitor_id
                     and v.last_activity_at >= ${q.start} and v.started_at < ${q.end}
                 ) desc,
                 l.created_at desc, l.visitor_id collate "C"
             ) as rank
      from ${personLinks(q.siteId)} l
      where l.person_key in (${sql.join(q.personKeys)})
    ) ranked
    where rank <= ${q.perKey}
    order by person_key, rank
  `.execute(db);
  for (const row of rows)
    members.set(row.person_key, [...(members.get(row.person_key) ?? []), row.visitor_id]);
  return members;
}

/** The person a visit belongs to: its visitor id's person key, or the visitor id itself. */
export async function findPersonOfVisit(
  db: Kysely<DB>,
  siteId: string,
  visitId: string,
): Promise<PersonId | null> {
  const { rows } = await sql<{ visitor_id: string; person_key: string | null }>`
    select v.visitor_id, l.person_key
    from visits v
    left join ${personLinks(siteId)} l on l.visitor_id = v.visitor_id
    where v.site_id = ${siteId} and v.id = ${visitId}
  `.execute(db);
  const row = rows[0];
  if (!row) return null;
  return row.person_key ? personOfKey(row.person_key) : personOfVisitor(row.visitor_id);
}

/** Each visitor id's first visit ever: a person's handle names the earliest of their visitor ids'. */
export function findFirstVisits(db: Kysely<DB>, siteId: string, visitorIds: readonly string[]) {
  if (visitorIds.length === 0)
    return Promise.resolve([] as { visitor_id: string; id: string; started_at: Date }[]);
  return db
    .selectFrom('visits')
    .select(['visitor_id', 'id', 'started_at'])
    .distinctOn('visitor_id')
    .where('site_id', '=', siteId)
    .where('visitor_id', 'in', visitorIds)
    .orderBy('visitor_id')
    .orderBy('started_at')
    .orderBy('id')
    .execute();
}

export type SeenRange = Pick<Selectable<VisitorsTable>, 'visitor_id' | 'first_seen' | 'last_seen'>;

export function findSeenRanges(db: Kysely<DB>, siteId: string, visitorIds: readonly string[]) {
  if (visitorIds.length === 0) return Promise.resolve([] as SeenRange[]);
  return db
    .selectFrom('visitors')
    .select(['visitor_id', 'first_seen', 'last_seen'])
    .where('site_id', '=', siteId)
    .where('visitor_id', 'in', visitorIds)
    .execute();
}

export type VisitRow = VisitFacts & Pick<Selectable<VisitsTable>, 'pageviews' | 'engaged_seconds'>;

/** Visits of these visitor ids overlapping the window, newest first. */
export function listVisits(
  db: Kysely<DB>,
  q: Window & { siteId: string; visitorIds: string[]; limit: number },
) {
  if (q.visitorIds.length === 0) return Promise.resolve([] as VisitRow[]);
  return db
    .selectFrom('visits')
    .select([...VISIT_FACT_COLUMNS, 'pageviews', 'engaged_seconds'])
    .where('site_id', '=', q.siteId)
    .where('visitor_id', 'in', q.visitorIds)
    .where('last_activity_at', '>=', q.start)
    .where('started_at', '<', q.end)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit)
    .execute();
}

export type ConversionOfPerson = Awaited<ReturnType<typeof listConversions>>[number];

/**
 * Conversion events in the window of these visitor ids, or of the person key alone, newest first,
 * with the exchange rates of their day into the site's currency (as the conversion listing reads them).
 */
export function listConversions(
  db: Kysely<DB>,
  q: Window & {
    siteId: string;
    siteCurrency: string;
    visitorIds: string[];
    personKey: string | null;
    limit: number;
  },
) {
  const { visitorIds, personKey } = q;
  // Qualified: inside the rate subqueries a bare `currency` would be the rate's own.
  const day = sql`((events.occurred_at at time zone 'UTC')::date)`;
  const currency = sql`coalesce(events.currency, ${q.siteCurrency})`;
  return db
    .selectFrom('events')
    .select(['event_id', 'name', 'occurred_at', 'value_minor', 'currency'])
    .select([
      perEuroOn(currency, day).as('from_per_euro'),
      perEuroOn(q.siteCurrency, day).as('to_per_euro'),
      sql<string | null>`least(${rateDayOn(currency, day)}, ${rateDayOn(q.siteCurrency, day)})`.as(
        'rate_day',
      ),
    ])
    .where('site_id', '=', q.siteId)
    .where('type', '=', 'event')
    .where('occurred_at', '>=', q.start)
    .where('occurred_at', '<', q.end)
    .where(isEventOfPeople({ visitorIds, personKeys: personKey ? [personKey] : [] }))
    .orderBy('occurred_at', 'desc')
    .orderBy('event_id', 'desc')
    .limit(q.limit)
    .execute();
}
