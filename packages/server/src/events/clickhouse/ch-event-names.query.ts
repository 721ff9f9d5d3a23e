/**
 * event-names.query.ts in ClickHouse: the names of a site's custom, server and payment events in
 * a window with their event and sender counts, in the same order and with the same cut.
 */
import type { ClickHouse } from '../../clickhouse/connection.js';
import { chRows, chTime } from '../../reporting/clickhouse/ch-read.js';
import { chRaw, chSql } from '../../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../../reporting/clickhouse/ch-tables.sql.js';
import type { Instants } from '../../reporting/grain.sql.js';
import { type EventNameRow, MAX_NAMES } from '../event-names.query.js';
import type { EventType } from '../event-types.js';
import { CH_EVENT_TYPE, chIsEventType } from './ch-event-types.sql.js';

export async function chCountEventNames(
  ch: ClickHouse,
  scope: ChScope,
  q: Instants & { type?: Exclude<EventType, 'pageview'> },
): Promise<EventNameRow[]> {
  const inWindow = chSql`type = 'event' AND occurred_at >= ${chTime(q.start)} AND occurred_at < ${chTime(q.end)}`;
  // Senders as PostgreSQL counts them: visitor ids, else 'p:' and the person key; nulls not counted.
  const rows = await chRows(
    ch,
    chSql`SELECT e.name AS name, ${CH_EVENT_TYPE} AS kind, count() AS events,
        uniqExact(coalesce(e.visitor_id, concat('p:', e.person_key))) AS visitors
      FROM ${siteRows(scope, 'events', inWindow)} AS e
      WHERE ${inWindow} ${q.type ? chSql`AND ${chIsEventType(q.type)}` : chRaw('')}
      GROUP BY name, kind
      ORDER BY events DESC, name ASC, kind ASC
      LIMIT ${MAX_NAMES}`,
  );
  return rows.map((row) => ({
    name: row.name as string,
    type: row.kind as EventNameRow['type'],
    events: Number(row.events),
    visitors: Number(row.visitors),
  }));
}
