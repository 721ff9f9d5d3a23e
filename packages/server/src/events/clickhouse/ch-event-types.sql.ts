/** The event kinds of event-types.sql.ts in ClickHouse SQL, over an events row `e`. */
import { PAYMENT_EVENT_NAMES } from '../../goals/goal-names.js';
import { type ChFragment, chSql } from '../../reporting/clickhouse/ch-sql.js';
import type { EventType } from '../event-types.js';

const PAYMENT_NAMES = [...PAYMENT_EVENT_NAMES];
// `name in (…)` and `name not in (…)` as PostgreSQL reads them: both false for a null name.
const isPaymentName = chSql`has(${PAYMENT_NAMES}, e.name)`;
const isOtherName = chSql`(e.name IS NOT NULL AND NOT has(${PAYMENT_NAMES}, e.name))`;

/** The kind of a listed row, as EVENT_TYPE_SQL writes it. */
export const CH_EVENT_TYPE = chSql`multiIf(e.type = 'pageview', 'pageview', e.origin = 'browser', 'custom',
  ${isPaymentName}, 'payment', 'server')`;

/** Rows of one kind, as isEventTypeSql keeps them. */
export function chIsEventType(type: EventType): ChFragment {
  switch (type) {
    case 'pageview':
      return chSql`e.type = 'pageview'`;
    case 'custom':
      return chSql`(e.type = 'event' AND e.origin = 'browser')`;
    case 'server':
      return chSql`(e.type = 'event' AND e.origin = 'server' AND ${isOtherName})`;
    case 'payment':
      return chSql`(e.type = 'event' AND e.origin = 'server' AND ${isPaymentName})`;
  }
}
