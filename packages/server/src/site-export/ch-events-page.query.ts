/**
 * The events of a site export (site-export.query.ts `eventsPage`) read from ClickHouse, for a
 * window PostgreSQL no longer holds whole: copied pageviews, identify and engagement events leave
 * it (retention/copied-traffic-purge.ts). ClickHouse finds the page over copied and uncopied rows
 * alike (ch-tables.sql.ts `siteRows`), in time order, ties by event id in byte order; values and
 * currencies come from PostgreSQL (money is never read from ClickHouse). A row of a kind that
 * stays in PostgreSQL but is no longer there was deleted meanwhile and is left out.
 */
import type { Kysely } from 'kysely';
import type { ClickHouse } from '../clickhouse/connection.js';
import type { DB } from '../db/types.js';
import { readPageMoney } from '../events/clickhouse/page-money.query.js';
import { chMoment, chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { chRaw, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import { COPIED_EVENT_TYPES } from '../retention/copied-traffic-purge.js';
import type { EventRow, PageCursor, PageRequest } from './site-export.query.js';

export interface ChEventsPage {
  rows: EventRow[];
  /** The last row ClickHouse read (as ClickHouse writes its time); null after the last page. */
  next: PageCursor | null;
}

function afterCursor(after: PageCursor | null) {
  if (!after) return chRaw('1');
  const at = chTime(chMoment(after.at));
  return chSql`(e.occurred_at > ${at} OR (e.occurred_at = ${at} AND e.event_id > ${after.id}))`;
}

export async function chEventsPage(
  ch: ClickHouse,
  scope: ChScope,
  db: Kysely<DB>,
  page: PageRequest,
): Promise<ChEventsPage> {
  const inWindow = chSql`occurred_at >= ${chTime(page.start)} AND occurred_at < ${chTime(page.end)}`;
  const found = await chRows(
    ch,
    chSql`SELECT e.event_id, e.type, e.name, e.visitor_id, e.visit_id, e.occurred_at, e.url, e.properties, e.origin
      FROM ${siteRows(scope, 'events', inWindow)} AS e
      WHERE ${inWindow} AND ${afterCursor(page.after)}
      ORDER BY e.occurred_at, e.event_id
      LIMIT ${page.limit}`,
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
  const rows: EventRow[] = [];
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
    });
  }
  const last = found.at(-1);
  const next =
    last && found.length === page.limit
      ? { at: last.occurred_at as string, id: last.event_id as string }
      : null;
  return { rows, next };
}
