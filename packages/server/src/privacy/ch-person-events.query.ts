/**
 * A person's events read from ClickHouse, once PostgreSQL no longer holds all traffic (copied
 * pageviews, identify and engagement events leave it: retention/copied-traffic-purge.ts): what
 * the access export writes and `matched.events` counts. The person is the request's scope, read
 * from PostgreSQL; the rows are those person-rows.sql.ts `personRows.events` finds, over copied
 * and uncopied rows alike (ch-tables.sql.ts `siteRows`). Values and currencies come from
 * PostgreSQL; a row of a kind that stays there but is no longer there was deleted meanwhile.
 */
import type { Kysely } from 'kysely';
import type { ClickHouse } from '../clickhouse/connection.js';
import type { DB } from '../db/types.js';
import { readPageMoney } from '../events/clickhouse/page-money.query.js';
import { chMoment, chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { type ChFragment, chRaw, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import { COPIED_EVENT_TYPES } from '../retention/copied-traffic-purge.js';
import type { PageCursor } from '../site-export/site-export.query.js';
import type { Row } from './access-export.query.js';

const PAGE_ROWS = 1000;

export interface ScopeIds {
  visitorIds: string[];
  personKeys: string[];
}

export interface PersonEventsPage {
  rows: Row[];
  /** The last row ClickHouse read (its time as ClickHouse writes it); null after the last page. */
  next: PageCursor | null;
}

/** Browser events of the person's visits, server conversions naming a visitor id, rows naming a key. */
function ofPerson(scope: ChScope, ids: ScopeIds): ChFragment {
  const visits = chSql`SELECT id FROM ${siteRows(scope, 'visits')} WHERE has(${ids.visitorIds}, visitor_id)`;
  return chSql`(ifNull(e.visit_id IN (${visits}), 0)
    OR (e.type = 'event' AND has(${ids.visitorIds}, ifNull(e.visitor_id, '')))
    OR has(${ids.personKeys}, ifNull(e.person_key, '')))`;
}

export async function chCountPersonEvents(ch: ClickHouse, scope: ChScope, ids: ScopeIds): Promise<number> {
  const [row] = await chRows(
    ch,
    chSql`SELECT count() AS n FROM ${siteRows(scope, 'events')} AS e WHERE ${ofPerson(scope, ids)}`,
  );
  return Number(row?.n ?? 0);
}

/** One page of the person's events in (time, event id) order, after `after`; null when done. */
export async function chPersonEventsPage(
  ch: ClickHouse,
  scope: ChScope,
  db: Kysely<DB>,
  ids: ScopeIds,
  after: PageCursor | null,
): Promise<PersonEventsPage> {
  const at = after ? chTime(chMoment(after.at)) : null;
  const cursor =
    after && at
      ? chSql`(e.occurred_at > ${at} OR (e.occurred_at = ${at} AND e.event_id > ${after.id}))`
      : chRaw('1');
  const found = await chRows(
    ch,
    chSql`SELECT e.event_id, e.type, e.name, e.visitor_id, e.visit_id, e.occurred_at, e.url, e.properties, e.origin,
        multiIf(startsWith(ifNull(e.person_key, ''), 'u:'), 'user_id', startsWith(ifNull(e.person_key, ''), 'e:'), 'email', NULL) AS identified_by
      FROM ${siteRows(scope, 'events')} AS e
      WHERE ${ofPerson(scope, ids)} AND ${cursor}
      ORDER BY e.occurred_at, e.event_id
      LIMIT ${PAGE_ROWS}`,
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
  const rows: Row[] = [];
  for (const { identified_by, ...row } of found) {
    const stored = money.get(row.event_id as string);
    if (!stored && !(COPIED_EVENT_TYPES as readonly unknown[]).includes(row.type)) continue;
    rows.push({
      ...row,
      occurred_at: chMoment(row.occurred_at),
      properties: row.properties === null ? null : JSON.parse(row.properties as string),
      value_minor: stored?.value_minor ?? null,
      currency: stored?.currency ?? null,
      identified_by,
    });
  }
  const last = found.at(-1);
  const next =
    last && found.length === PAGE_ROWS
      ? { at: last.occurred_at as string, id: last.event_id as string }
      : null;
  return { rows, next };
}
