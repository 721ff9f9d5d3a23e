/** SQL of the access export (access-export.ts): the person's rows of each kind, page after page. */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { EVENT_COLUMNS, PAYMENT_COLUMNS, VISIT_COLUMNS } from '../site-export/site-export.query.js';
import { personEventIds, personRows, type RequestRef } from './person-rows.sql.js';

const PAGE_ROWS = 1000;

export type Row = Record<string, unknown>;

/**
 * Rows of one query, page after page in (time, key) order, each page resumed after the last
 * row's `cursor_at` (its time as the database's own text: a JavaScript Date keeps only
 * milliseconds and would read a row with microseconds twice) and key.
 */
async function* keysetRows(
  db: Kysely<DB>,
  page: (after: RawBuilder<unknown>, limit: number) => RawBuilder<Row>,
  order: { time: string; key: string },
): AsyncGenerator<Row> {
  let last: Row | null = null;
  for (;;) {
    const after: RawBuilder<unknown> = last
      ? sql`(${sql.ref(order.time)}, ${sql.ref(order.key)}) > (${last.cursor_at}::timestamptz, ${last[order.key]})`
      : sql`true`;
    const { rows } = await page(after, PAGE_ROWS).execute(db);
    for (const { cursor_at: _cursor, ...row } of rows) yield row;
    if (rows.length < PAGE_ROWS) return;
    last = rows.at(-1) as Row;
  }
}

/** A column list for a select, each name quoted as an identifier. */
const columnsOf = (columns: readonly string[]) => sql.join(columns.map((column) => sql.ref(column)));

export function visitsOf(db: Kysely<DB>, ref: RequestRef) {
  return keysetRows(
    db,
    (after, limit) => sql<Row>`
      select ${columnsOf(VISIT_COLUMNS)}, started_at::text as cursor_at
      from visits where ${personRows.visits(ref)} and ${after}
      order by started_at, id limit ${limit}`,
    { time: 'started_at', key: 'id' },
  );
}

export function eventsOf(db: Kysely<DB>, ref: RequestRef) {
  return keysetRows(
    db,
    (after, limit) => sql<Row>`
      select ${columnsOf(EVENT_COLUMNS)},
        case when person_key like 'u:%' then 'user_id' when person_key like 'e:%' then 'email' end as identified_by,
        occurred_at::text as cursor_at
      from events where ${personRows.events(ref)} and ${after}
      order by occurred_at, event_id limit ${limit}`,
    { time: 'occurred_at', key: 'event_id' },
  );
}

/** A person's identity links: a handful, read at once. */
export async function* linksOf(db: Kysely<DB>, ref: RequestRef): AsyncGenerator<Row> {
  const { rows } = await sql<Row>`
    select visitor_id, created_at,
      case when person_key like 'u:%' then 'user_id' when person_key like 'e:%' then 'email' end as identified_by
    from identity_links where ${personRows.identity_links(ref)}
    order by created_at, visitor_id, person_key`.execute(db);
  yield* rows;
}

export function paymentsOf(db: Kysely<DB>, ref: RequestRef) {
  return keysetRows(
    db,
    (after, limit) => sql<Row>`
      select ${columnsOf(PAYMENT_COLUMNS)},
        coalesce((select json_agg(json_build_object('amount_minor', r.amount_minor, 'refunded_at', r.refunded_at)
          order by r.refunded_at, r.id) from refunds r where r.site_id = payments.site_id and r.payment_id = payments.id),
          '[]'::json) as refunds
        , paid_at::text as cursor_at
      from payments where ${personRows.payments(ref)} and ${after}
      order by paid_at, id limit ${limit}`,
    { time: 'paid_at', key: 'id' },
  );
}

/** Credits of the person's conversions: a few rows per conversion, read at once. */
export async function* creditsOf(db: Kysely<DB>, ref: RequestRef): AsyncGenerator<Row> {
  const { rows } = await sql<Row>`
    select event_id, model, source, source_kind, share from attribution_credits
    where site_id = ${ref.siteId} and event_id in ${personEventIds(ref)}
    order by event_id, model, source`.execute(db);
  yield* rows;
}
