/**
 * event-rows.query.ts in ClickHouse: one page of a site's events in a window, newest first (time,
 * then event id in byte order), with the same rows and cursor. ClickHouse finds the page and
 * gives each row's event columns and its visit's channel (events carry their visit's attributes);
 * values, currencies and a payment's open visit are read from PostgreSQL for the page's rows
 * (page-money.query.ts). A session or visit filter on custom, server or payment events reads
 * those rows from PostgreSQL (chListEventRows). Answers null, and PostgreSQL reads the page, for
 * a cursor with microseconds, or a custom, server or payment event PostgreSQL no longer holds
 * (deleted meanwhile; pageviews may have left it once copied).
 */
import type { Kysely } from 'kysely';
import type { ClickHouse } from '../../clickhouse/connection.js';
import type { DB } from '../../db/types.js';
import { chFilter } from '../../reporting/clickhouse/ch-columns.sql.js';
import { type ChRow, chMoment, chRows, chTime } from '../../reporting/clickhouse/ch-read.js';
import { type ChFragment, chJoin, chRaw, chSql } from '../../reporting/clickhouse/ch-sql.js';
import { type ChScope, personLinks, siteRows } from '../../reporting/clickhouse/ch-tables.sql.js';
import { filterSql } from '../../reporting/filter.sql.js';
import type { Filter } from '../../reporting/filters.js';
import { COPIED_EVENT_TYPES } from '../../retention/copied-traffic-purge.js';
import type { EventCursor } from '../event-cursor.js';
import {
  type EventPageQuery,
  type EventRow,
  listEventRows,
  PROPERTIES_TRANSFER_LIMIT_BYTES,
  type RowType,
  rowTypesOf,
} from '../event-rows.query.js';
import { type EventType, PAGEVIEW_NAME } from '../event-types.js';
import { CH_EVENT_TYPE, chIsEventType } from './ch-event-types.sql.js';
import { type PageMoneyRow, readPageMoney } from './page-money.query.js';

/** The page query with the session's filters as a filter tree, which ClickHouse compiles itself. */
export type ChEventPageQuery = Omit<EventPageQuery, 'visitCondition'> & { visitFilters: Filter[] };

/** The person's rows, as event-people.sql.ts finds them (a pageview's visitor id is its visit's). */
function ofPerson(scope: ChScope, q: ChEventPageQuery): ChFragment {
  const person = q.person;
  if (!person) return chRaw('1');
  if ('visitorId' in person) return chSql`ifNull(e.visitor_id = ${person.visitorId}, 0)`;
  const key = person.personKey;
  return chSql`(ifNull(e.visitor_id IN (SELECT visitor_id FROM ${personLinks(scope)} WHERE person_key = ${key}), 0)
    OR (e.visitor_id IS NULL AND ifNull(e.person_key = ${key}, 0)))`;
}

/** `occurred_at` and event id before the cursor; null for a time ClickHouse cannot hold (microseconds). */
function beforeCursor(before: EventCursor | undefined): ChFragment | null {
  if (!before) return chRaw('1');
  if (!before.at.endsWith('000Z')) return null;
  const at = chTime(new Date(before.at));
  return chSql`(e.occurred_at < ${at} OR (e.occurred_at = ${at} AND e.event_id < ${before.eventId}))`;
}

/** Whether the query asks about visits of rows other than pageviews (chListEventRows splits it). */
const asksVisitsOfEvents = (q: ChEventPageQuery, rowTypes: RowType[]) =>
  Boolean(q.visitId || q.visitFilters.length) && rowTypes.includes('event');

function conditions(scope: ChScope, q: ChEventPageQuery, rowTypes: RowType[]): ChFragment[] | null {
  if (asksVisitsOfEvents(q, rowTypes)) return null;
  const all: ChFragment[] = [];
  if (q.type) all.push(chIsEventType(q.type));
  if (q.name !== undefined && q.name !== PAGEVIEW_NAME) all.push(chSql`ifNull(e.name = ${q.name}, 0)`);
  if (q.visitId) all.push(chSql`ifNull(toString(e.visit_id) = ${q.visitId}, 0)`);
  if (q.person) all.push(ofPerson(scope, q));
  if (q.visitFilters.length) {
    const filter = chFilter({ op: 'and', filters: q.visitFilters }, 'pageviews', scope);
    if (!filter) return null;
    // A pageview without a visit matches no visit condition in PostgreSQL.
    all.push(chSql`(e.visit_id IS NOT NULL AND ${filter})`);
  }
  const cursor = beforeCursor(q.before);
  if (!cursor) return null;
  all.push(cursor);
  return all;
}

/** The page's event rows, without money; null when ClickHouse cannot answer the query exactly. */
async function readPage(ch: ClickHouse, scope: ChScope, q: ChEventPageQuery): Promise<ChRow[] | null> {
  const rowTypes = rowTypesOf(q);
  if (rowTypes.length === 0) return [];
  const where = conditions(scope, q, rowTypes);
  if (!where) return null;
  const inWindow = chSql`has(${rowTypes}, type) AND occurred_at >= ${chTime(q.start)} AND occurred_at < ${chTime(q.end)}`;
  return chRows(
    ch,
    chSql`SELECT e.event_id, ${CH_EVENT_TYPE} AS kind, e.type AS stored_type, e.name, e.occurred_at, e.visitor_id, e.person_key,
        e.visit_id, e.path, ifNull(length(e.properties) > ${PROPERTIES_TRANSFER_LIMIT_BYTES}, 0) AS withheld,
        if(withheld, NULL, e.properties) AS props,
        if(e.visit_id IS NULL, NULL, if(e.source_kind = 'ai', 'ai', e.session_ai_source)) AS channel,
        if(e.visit_id IS NOT NULL AND e.source_kind = 'ai', e.session_ai_source, NULL) AS assistant
      FROM ${siteRows(scope, 'events', inWindow)} AS e
      WHERE ${inWindow} AND ${chJoin(where, ' AND ')}
      ORDER BY e.occurred_at DESC, e.event_id DESC
      LIMIT ${q.limit}`,
  );
}

/**
 * A row of a type that leaves PostgreSQL once copied (retention/copied-traffic-purge.ts) may
 * be in ClickHouse only: it never has a value, and its visit is its own.
 */
const leftPostgres = (row: ChRow): PageMoneyRow | undefined =>
  (COPIED_EVENT_TYPES as readonly unknown[]).includes(row.stored_type)
    ? { ...NO_MONEY, event_id: row.event_id as string }
    : undefined;

const NO_MONEY = {
  value_minor: null,
  currency: null,
  payment_visit_id: null,
  payment_channel: null,
  payment_ai_source: null,
};

/** A ClickHouse time ('YYYY-MM-DD HH:MM:SS.mmm', UTC) as the cursor writes it, with microseconds. */
const cursorTime = (at: string) => `${at.replace(' ', 'T')}000Z`;

/**
 * One page of events read from ClickHouse, its money from PostgreSQL; null when ClickHouse
 * cannot answer it exactly. A session or visit condition on custom, server or payment rows is
 * split: a payment's visit is found by a rule only PostgreSQL applies, and those rows never leave
 * PostgreSQL (retention/copied-traffic-purge.ts), so they are read there, the pageviews here,
 * and the two newest-first pages merged as PostgreSQL orders them.
 */
export async function chListEventRows(
  ch: ClickHouse,
  scope: ChScope,
  db: Kysely<DB>,
  q: ChEventPageQuery,
): Promise<EventRow[] | null> {
  const rowTypes = rowTypesOf(q);
  if (!asksVisitsOfEvents(q, rowTypes)) return chPageRows(ch, scope, db, q);
  const views = rowTypes.includes('pageview')
    ? await chPageRows(ch, scope, db, { ...q, type: 'pageview' })
    : [];
  if (views === null) return null;
  const visitCondition = q.visitFilters.length
    ? filterSql({ op: 'and', filters: q.visitFilters })
    : undefined;
  const events = await listEventRows(db, { ...q, visitCondition }, ['event']);
  return [...views, ...events].sort(newestFirst).slice(0, q.limit);
}

/** Newest first, ties by event id in byte order, as event-rows.query.ts orders a page. */
function newestFirst(a: EventRow, b: EventRow): number {
  if (a.cursor_at !== b.cursor_at) return a.cursor_at < b.cursor_at ? 1 : -1;
  return Buffer.compare(Buffer.from(b.event_id), Buffer.from(a.event_id));
}

async function chPageRows(
  ch: ClickHouse,
  scope: ChScope,
  db: Kysely<DB>,
  q: ChEventPageQuery,
): Promise<EventRow[] | null> {
  const page = await readPage(ch, scope, q);
  if (!page) return null;
  const money = new Map(
    (
      await readPageMoney(
        db,
        q.siteId,
        page.map((row) => row.event_id as string),
      )
    ).map((row) => [row.event_id, row]),
  );
  const rows: EventRow[] = [];
  for (const row of page) {
    const extra = money.get(row.event_id as string) ?? leftPostgres(row);
    if (!extra) return null; // deleted meanwhile: PostgreSQL reads the page again
    const withheld = Boolean(row.withheld);
    const isPaymentVisit = row.visit_id === null;
    rows.push({
      event_id: row.event_id as string,
      type: row.kind as EventType,
      name: row.name as string | null,
      occurred_at: chMoment(row.occurred_at),
      cursor_at: cursorTime(row.occurred_at as string),
      visitor_id: row.visitor_id as string | null,
      person_key: row.person_key as string | null,
      visit_id: isPaymentVisit ? extra.payment_visit_id : (row.visit_id as string),
      path: row.path as string | null,
      properties: row.props === null ? null : JSON.parse(row.props as string),
      properties_withheld: withheld,
      value_minor: extra.value_minor,
      currency: extra.currency,
      channel: isPaymentVisit ? extra.payment_channel : (row.channel as string | null),
      ai_source: isPaymentVisit ? extra.payment_ai_source : (row.assistant as string | null),
    });
  }
  return rows;
}
