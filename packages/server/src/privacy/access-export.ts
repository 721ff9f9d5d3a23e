/**
 * The access export: one JSON document with everything stored about the person on the site,
 * written as it is read, a page of rows at a time, so a visitor with years of visits never sits
 * in memory whole. Crawler data is not about people and is left out; person keys are keyed
 * hashes that mean nothing outside this server, so links say only whether they name a user id
 * or an email.
 */
import { pgHoldsFrom } from '../clickhouse/ship-batches.query.js';
import { AppError } from '../http/errors.js';
import { toMajorUnits } from '../lib/money.js';
import { type Readers, readClickHouse } from '../reporting/clickhouse/ch-read.js';
import type { PageCursor } from '../site-export/site-export.query.js';
import { creditsOf, eventsOf, linksOf, paymentsOf, type Row, visitsOf } from './access-export.query.js';
import { chPersonEventsPage, type PersonEventsPage } from './ch-person-events.query.js';
import type { RequestRef } from './person-rows.sql.js';
import { scopeIds, scopeValues } from './scope.store.js';

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

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

/**
 * The person's events: from ClickHouse once PostgreSQL no longer holds all traffic (copied
 * pageviews leave it), page by page; 503 `unavailable` when ClickHouse cannot answer.
 */
async function* eventsOfPerson(readers: Readers, ref: RequestRef): AsyncGenerator<Row> {
  if (!(await pgHoldsFrom(readers.db))) return yield* eventsOf(readers.db, ref);
  const ids = await scopeIds(readers.db, ref.requestId);
  let after: PageCursor | null = null;
  do {
    const from: PageCursor | null = after;
    const page: PersonEventsPage | null = await readClickHouse(readers, ref.siteId, null, (ch, scope) =>
      chPersonEventsPage(ch, scope, readers.db, ids, from),
    );
    // readClickHouse answers or refuses here: PostgreSQL does not hold every event.
    if (!page) throw new AppError(503, 'unavailable', 'ClickHouse could not answer; retry');
    yield* page.rows;
    after = page.next;
  } while (after);
}

/** The export document as text pieces, in order. */
export async function* accessExport(
  readers: Readers,
  ref: RequestRef,
  header: ExportHeader,
): AsyncGenerator<string> {
  const db = readers.db;
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
    ['events', eventsOfPerson(readers, ref), eventView],
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
