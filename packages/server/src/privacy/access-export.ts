/**
 * The access export: one JSON document with everything stored about the person on the site,
 * written as it is read, a page of rows at a time, so a visitor with years of visits never sits
 * in memory whole. Crawler data is not about people and is left out; person keys are keyed
 * hashes that mean nothing outside this server, so links say only whether they name a user id
 * or an email.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { toMajorUnits } from '../lib/money.js';
import { EVENT_COLUMNS, PAYMENT_COLUMNS, VISIT_COLUMNS } from '../site-export/site-export.queries.js';
import { personEventIds, personRows, type RequestRef } from './person-rows.js';
import { scopeValues } from './scope.js';

const PAGE_ROWS = 1000;

type Row = Record<string, unknown>;

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

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

function visitsOf(db: Kysely<DB>, ref: RequestRef) {
  return keysetRows(
    db,
    (after, limit) => sql<Row>`
      select ${columnsOf(VISIT_COLUMNS)}, started_at::text as cursor_at
      from visits where ${personRows.visits(ref)} and ${after}
      order by started_at, id limit ${limit}`,
    { time: 'started_at', key: 'id' },
  );
}

function eventsOf(db: Kysely<DB>, ref: RequestRef) {
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
async function* linksOf(db: Kysely<DB>, ref: RequestRef): AsyncGenerator<Row> {
  const { rows } = await sql<Row>`
    select visitor_id, created_at,
      case when person_key like 'u:%' then 'user_id' when person_key like 'e:%' then 'email' end as identified_by
    from identity_links where ${personRows.identity_links(ref)}
    order by created_at, visitor_id, person_key`.execute(db);
  yield* rows;
}

function paymentsOf(db: Kysely<DB>, ref: RequestRef) {
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
async function* creditsOf(db: Kysely<DB>, ref: RequestRef): AsyncGenerator<Row> {
  const { rows } = await sql<Row>`
    select event_id, model, source, source_kind, share from attribution_credits
    where site_id = ${ref.siteId} and event_id in ${personEventIds(ref)}
    order by event_id, model, source`.execute(db);
  yield* rows;
}

const visitView = (row: Row) => ({
  ...row,
  started_at: iso(row.started_at),
  last_activity_at: iso(row.last_activity_at),
});

const eventView = ({ value_minor, currency, occurred_at, ...row }: Row) => ({
  ...row,
  occurred_at: iso(occurred_at),
  value:
    typeof value_minor === 'number' && typeof currency === 'string'
      ? toMajorUnits(value_minor, currency)
      : null,
  currency,
});

const linkView = (row: Row) => ({
  visitor_id: row.visitor_id,
  identified_by: row.identified_by,
  created_at: iso(row.created_at),
});

const paymentView = ({ id: _id, amount_minor, refunded_minor, refunds, paid_at, ...row }: Row) => {
  const currency = row.currency as string;
  return {
    ...row,
    amount: toMajorUnits(Number(amount_minor), currency),
    refunded_amount: toMajorUnits(Number(refunded_minor), currency),
    paid_at: iso(paid_at),
    refunds: (refunds as { amount_minor: number; refunded_at: string }[]).map((refund) => ({
      amount: toMajorUnits(refund.amount_minor, currency),
      refunded_at: new Date(refund.refunded_at).toISOString(),
    })),
  };
};

export interface ExportHeader {
  requestId: string;
  site: { id: string; domain: string };
  subjectKind: string;
  generatedAt: Date;
}

/** The export document as text pieces, in order. */
export async function* accessExport(
  db: Kysely<DB>,
  ref: RequestRef,
  header: ExportHeader,
): AsyncGenerator<string> {
  const head = {
    request_id: header.requestId,
    generated_at: header.generatedAt.toISOString(),
    site: header.site,
    subject: { kind: header.subjectKind },
    visitor_ids: await scopeValues(db, ref.requestId, 'visitor'),
  };
  // The head without its closing brace, then one array per kind of row.
  yield JSON.stringify(head).slice(0, -1);
  const sections: [string, AsyncGenerator<Row>, (row: Row) => unknown][] = [
    ['identity_links', linksOf(db, ref), linkView],
    ['visits', visitsOf(db, ref), visitView],
    ['events', eventsOf(db, ref), eventView],
    ['payments', paymentsOf(db, ref), paymentView],
    ['attribution_credits', creditsOf(db, ref), (row) => row],
  ];
  for (const [name, rows, view] of sections) {
    yield `,${JSON.stringify(name)}:[`;
    let first = true;
    for await (const row of rows) {
      yield (first ? '' : ',') + JSON.stringify(view(row));
      first = false;
    }
    yield ']';
  }
  yield '}\n';
}
