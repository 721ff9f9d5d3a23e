/**
 * Events read from ClickHouse for an export, once PostgreSQL no longer holds them all: copied
 * pageviews, identify and engagement events leave it (retention/copied-traffic-purge.ts). Used
 * for the site export's window (site-export.query.ts `eventsPage`) and for a person's access
 * export (privacy/ch-person-events.query.ts). ClickHouse finds the page over copied and uncopied
 * rows alike (ch-tables.sql.ts `siteRows`), in time order, ties by event id in byte order;
 * values and currencies come from PostgreSQL (money is never read from ClickHouse). A row of a
 * kind that stays in PostgreSQL but is no longer there was deleted meanwhile and is left out.
 */
import type { Kysely } from 'kysely';
import type { ClickHouse } from '../clickhouse/connection.js';
import type { DB } from '../db/types.js';
import { readPageMoney } from '../events/clickhouse/page-money.query.js';
import { chMoment, chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { type ChFragment, chRaw, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import { COPIED_EVENT_TYPES } from '../retention/copied-traffic-purge.js';
import type { EventRow, PageCursor, PageRequest } from './site-export.query.js';

/** An exported event, with its person key for the access export's `identified_by`. */
export type ChEventRow = EventRow & { person_key: string | null };

export interface ChEventsPage {
  rows: ChEventRow[];
  /** The last row ClickHouse read (as ClickHouse writes its time); null after the last page. */
  next: PageCursor | null;
}

export interface ChEventsPageRequest {
  /** Which rows: a condition over the events row `e`. */
  where: ChFragment;
  /** Narrows the copied rows before `FINAL` (a time range); applied again by `where`. */
  narrow?: ChFragment;
  after: PageCursor | null;
  limit: number;
}

function afterCursor(after: PageCursor | null) {
  if (!after) return chRaw('1');
  const at = chTime(chMoment(after.at));
  return chSql`(e.occurred_at > ${at} OR (e.occurred_at = ${at} AND e.event_id > ${after.id}))`;
}

/** One page of the events `q.where` finds, after `q.after`. */
export async function chExportedEventsPage(
  ch: ClickHouse,
  scope: ChScope,
  db: Kysely<DB>,
  q: ChEventsPageRequest,
): Promise<ChEventsPage> {
  const found = await chRows(
    ch,
    chSql`SELECT e.event_id, e.type, e.name, e.visitor_id, e.visit_id, e.occurred_at, e.url, e.properties,
        e.origin, e.person_key
      FROM ${siteRows(scope, 'events', q.narrow)} AS e
      WHERE ${q.where} AND ${afterCursor(q.after)}
      ORDER BY e.occurred_at, e.event_id
      LIMIT ${q.limit}`,
  );
  const money = new Map(
    (
      await readPageMoney(
        db,
        scope.siteId,
        found.map((row) => row.event_id as string),
      )
    ).map((row) => [row.event_id, row]),
  );
  const rows: ChEventRow[] = [];
  for (const row of found) {
    const stored = money.get(row.event_id as string);
    if (!stored && !(COPIED_EVENT_TYPES as readonly unknown[]).includes(row.type)) continue;
    rows.push({
      event_id: row.event_id as string,
      type: row.type as EventRow['type'],
      name: row.name as string | null,
      visitor_id: row.visitor_id as string | null,
      visit_id: row.visit_id as string | null,
      occurred_at: chMoment(row.occurred_at),
      url: row.url as string | null,
      properties: row.properties === null ? null : JSON.parse(row.properties as string),
      value_minor: stored?.value_minor ?? null,
      currency: stored?.currency ?? null,
      origin: row.origin as EventRow['origin'],
      cursor_at: row.occurred_at as string,
      person_key: row.person_key as string | null,
    });
  }
  const last = found.at(-1);
  const next =
    last && found.length === q.limit ? { at: last.occurred_at as string, id: last.event_id as string } : null;
  return { rows, next };
}

/** The site export's page of events in its window. */
export function chEventsPage(ch: ClickHouse, scope: ChScope, db: Kysely<DB>, page: PageRequest) {
  const inWindow = chSql`occurred_at >= ${chTime(page.start)} AND occurred_at < ${chTime(page.end)}`;
  return chExportedEventsPage(ch, scope, db, {
    where: inWindow,
    narrow: inWindow,
    after: page.after,
    limit: page.limit,
  });
}
