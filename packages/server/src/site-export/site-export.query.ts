/**
 * One keyset page of a site's visits, events, payments or imported days inside a time window, in time order
 * (ties by id). Each query walks an index that leads with (site_id, time): visits_started_idx,
 * and events_site_occurred_idx and payments_site_paid_idx of migration 029. `person_key` is
 * never selected.
 *
 * The cursor carries the time as PostgreSQL's own text, not as a JavaScript Date: a Date keeps
 * milliseconds only, so a row stored with microseconds would be read again on the next page.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { EventsTable, PaymentsTable, VisitsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';

export interface PageCursor {
  /** The last row's time, as the database wrote it. */
  at: string;
  id: string;
}

export interface PageRequest {
  siteId: string;
  start: Date;
  end: Date;
  after: PageCursor | null;
  limit: number;
}

/** The visit columns an export reads (and a person's access export too), in the order written. */
export const VISIT_COLUMNS = [
  'id',
  'visitor_id',
  'started_at',
  'last_activity_at',
  'entry_url',
  'exit_url',
  'source_kind',
  'session_ai_source',
  'source_name',
  'campaign',
  'utm_source',
  'utm_medium',
  'utm_content',
  'utm_term',
  'ref',
  'device_type',
  'os',
  'browser',
  'country_code',
  'city',
  'pageviews',
  'engaged_seconds',
  'is_new',
] as const;

export type VisitRow = Pick<Selectable<VisitsTable>, (typeof VISIT_COLUMNS)[number]> & { cursor_at: string };

/** The event columns an export reads (and a person's access export too), in the order written. */
export const EVENT_COLUMNS = [
  'event_id',
  'type',
  'name',
  'visitor_id',
  'visit_id',
  'occurred_at',
  'url',
  'properties',
  'value_minor',
  'currency',
  'origin',
] as const;

export type EventRow = Pick<Selectable<EventsTable>, (typeof EVENT_COLUMNS)[number]> & { cursor_at: string };

/**
 * The payment columns an export reads (and a person's access export too). The site export names
 * its fields one by one; the access export writes what it does not reshape in this order.
 */
export const PAYMENT_COLUMNS = [
  'id',
  'event_id',
  'provider',
  'transaction_id',
  'kind',
  'amount_minor',
  'refunded_minor',
  'currency',
  'renewal',
  'customer_id',
  'visitor_id',
  'paid_at',
] as const;

export type PaymentRow = Pick<Selectable<PaymentsTable>, (typeof PAYMENT_COLUMNS)[number]> & {
  cursor_at: string;
};

export function visitsPage(db: Kysely<DB>, page: PageRequest): Promise<VisitRow[]> {
  const after = page.after;
  return db
    .selectFrom('visits')
    .select([...VISIT_COLUMNS, sql<string>`started_at::text`.as('cursor_at')])
    .where('site_id', '=', page.siteId)
    .where('started_at', '>=', page.start)
    .where('started_at', '<', page.end)
    .$if(after !== null, (q) =>
      q.where(sql<boolean>`(started_at, id) > (${after?.at}::timestamptz, ${after?.id}::uuid)`),
    )
    .orderBy('started_at')
    .orderBy('id')
    .limit(page.limit)
    .execute();
}

export function eventsPage(db: Kysely<DB>, page: PageRequest): Promise<EventRow[]> {
  const after = page.after;
  return db
    .selectFrom('events')
    .select([...EVENT_COLUMNS, sql<string>`occurred_at::text`.as('cursor_at')])
    .where('site_id', '=', page.siteId)
    .where('occurred_at', '>=', page.start)
    .where('occurred_at', '<', page.end)
    .$if(after !== null, (q) =>
      q.where(sql<boolean>`(occurred_at, event_id) > (${after?.at}::timestamptz, ${after?.id})`),
    )
    .orderBy('occurred_at')
    .orderBy('event_id')
    .limit(page.limit)
    .execute();
}

export function paymentsPage(db: Kysely<DB>, page: PageRequest): Promise<PaymentRow[]> {
  const after = page.after;
  return db
    .selectFrom('payments')
    .select([...PAYMENT_COLUMNS, sql<string>`paid_at::text`.as('cursor_at')])
    .where('site_id', '=', page.siteId)
    .where('paid_at', '>=', page.start)
    .where('paid_at', '<', page.end)
    .$if(after !== null, (q) =>
      q.where(sql<boolean>`(paid_at, id) > (${after?.at}::timestamptz, ${after?.id}::uuid)`),
    )
    .orderBy('paid_at')
    .orderBy('id')
    .limit(page.limit)
    .execute();
}

export interface ImportedDayRow {
  import_id: string;
  source: string;
  day: string;
  dimension: string;
  value: string;
  visitors: number;
  visits: number;
  pageviews: number;
  bounces: number;
  duration_seconds: number;
  events: number;
  cursor_at: string;
}

/** The cursor id of an imported day: the rest of its key after the day. */
export const importedDayCursorId = (row: Pick<ImportedDayRow, 'import_id' | 'dimension' | 'value'>) =>
  JSON.stringify([row.import_id, row.dimension, row.value]);

/** Imported daily counts (imports/) of the window's UTC days, by day, then import, dimension, value. */
export async function importedDaysPage(db: Kysely<DB>, page: PageRequest): Promise<ImportedDayRow[]> {
  const [importId, dimension, value] = page.after ? (JSON.parse(page.after.id) as string[]) : [];
  const { rows } = await sql<ImportedDayRow>`
    select d.import_id, i.source, to_char(d.day, 'YYYY-MM-DD') as day, d.dimension, d.value,
      d.visitors, d.visits, d.pageviews, d.bounces, d.duration_seconds, d.events,
      to_char(d.day, 'YYYY-MM-DD') as cursor_at
    from imported_days d join imports i on i.id = d.import_id
    where d.site_id = ${page.siteId}
      and d.day >= (${page.start}::timestamptz at time zone 'UTC')::date
      and d.day < (${page.end}::timestamptz at time zone 'UTC')::date
      ${
        page.after
          ? sql`and (d.day, d.import_id, d.dimension, d.value) > (${page.after.at}::date, ${importId}::uuid, ${dimension}, ${value})`
          : sql``
      }
    order by d.day, d.import_id, d.dimension, d.value
    limit ${page.limit}`.execute(db);
  return rows;
}
