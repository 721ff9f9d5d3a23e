/**
 * A person's events read from ClickHouse, once PostgreSQL no longer holds all traffic (copied
 * pageviews, identify and engagement events leave it: retention/copied-traffic-purge.ts): what
 * the access export writes and `matched.events` counts. The person is the request's scope, read
 * from PostgreSQL; the rows are those person-rows.sql.ts `personRows.events` finds, over copied
 * and uncopied rows alike, read as the site export reads them (site-export/ch-events-page.query.ts).
 */
import type { Kysely } from 'kysely';
import type { ClickHouse } from '../clickhouse/connection.js';
import type { DB } from '../db/types.js';
import { chRows } from '../reporting/clickhouse/ch-read.js';
import { type ChFragment, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import { chExportedEventsPage } from '../site-export/ch-events-page.query.js';
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

/** As access-export.query.ts names a row's person key: whether it is a user id or an email. */
const identifiedBy = (personKey: string | null) =>
  personKey?.startsWith('u:') ? 'user_id' : personKey?.startsWith('e:') ? 'email' : null;

/** One page of the person's events in (time, event id) order, after `after`; null when done. */
export async function chPersonEventsPage(
  ch: ClickHouse,
  scope: ChScope,
  db: Kysely<DB>,
  ids: ScopeIds,
  after: PageCursor | null,
): Promise<PersonEventsPage> {
  const page = await chExportedEventsPage(ch, scope, db, {
    where: ofPerson(scope, ids),
    after,
    limit: PAGE_ROWS,
  });
  const rows = page.rows.map(({ person_key, cursor_at: _cursor, ...row }) => ({
    ...row,
    identified_by: identifiedBy(person_key),
  }));
  return { rows, next: page.next };
}
