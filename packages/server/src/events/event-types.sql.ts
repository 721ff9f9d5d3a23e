/** SQL of the event kinds event-types.ts names, over `events e`. */
import { type RawBuilder, sql } from 'kysely';
import { PAYMENT_EVENT_NAMES } from '../goals/goal-names.js';
import type { EventType } from './event-types.js';

// Literals, not parameters: a partial index on `type` is only usable when the planner sees them.
const PAYMENT_NAMES = sql`(${sql.join(PAYMENT_EVENT_NAMES.map((name) => sql.lit(name)))})`;

/** Rows the listing may show. */
export const LISTED_ROWS = sql<boolean>`e.type in ('pageview', 'event')`;

/** The kind of an `events e` row that LISTED_ROWS admits. */
export const EVENT_TYPE_SQL = sql<EventType>`case
  when e.type = 'pageview' then 'pageview'
  when e.origin = 'browser' then 'custom'
  when e.name in ${PAYMENT_NAMES} then 'payment'
  else 'server' end`;

/** Rows of `events e` of one kind. */
export function isEventTypeSql(type: EventType): RawBuilder<boolean> {
  switch (type) {
    case 'pageview':
      return sql`e.type = 'pageview'`;
    case 'custom':
      return sql`(e.type = 'event' and e.origin = 'browser')`;
    case 'server':
      return sql`(e.type = 'event' and e.origin = 'server' and e.name not in ${PAYMENT_NAMES})`;
    case 'payment':
      return sql`(e.type = 'event' and e.origin = 'server' and e.name in ${PAYMENT_NAMES})`;
  }
}
