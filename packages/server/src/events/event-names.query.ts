/**
 * The names of a site's custom, server and payment events in a window, with how many events
 * and senders each had, most events first. A name sent both from browsers and from a server
 * gives one row per kind.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import type { Instants } from '../reporting/grain.sql.js';
import type { EventType } from './event-types.js';
import { EVENT_TYPE_SQL, isEventTypeSql } from './event-types.sql.js';

export const MAX_NAMES = 1000;

export interface EventNameRow {
  name: string;
  type: Exclude<EventType, 'pageview'>;
  events: number;
  visitors: number;
}

export async function countEventNames(
  db: Kysely<DB>,
  q: Instants & { siteId: string; type?: Exclude<EventType, 'pageview'> },
): Promise<EventNameRow[]> {
  const byType = q.type ? sql`and ${isEventTypeSql(q.type)}` : sql``;
  // Senders: visitor ids, and the person key of an event sent with nothing else. Visitor ids
  // never hold ':', so the two cannot collide.
  const { rows } = await sql<EventNameRow>`
    select name, type, events, visitors from (
      select e.name, ${EVENT_TYPE_SQL} as type, count(*) as events,
        count(distinct coalesce(e.visitor_id, 'p:' || e.person_key)) as visitors
      from events e
      where e.site_id = ${q.siteId} and e.type = 'event'
        and e.occurred_at >= ${q.start} and e.occurred_at < ${q.end}
        ${byType}
      group by 1, 2
    ) named
    order by events desc, name collate "C", type collate "C"
    limit ${MAX_NAMES}
  `.execute(db);
  return rows;
}
