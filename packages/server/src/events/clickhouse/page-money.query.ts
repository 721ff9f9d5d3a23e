/**
 * The PostgreSQL part of a page of events ClickHouse found: each event's value and currency
 * (money is never read from ClickHouse) and, for a payment or trial, the visit its visitor id had
 * open (visits/visit-conversions.sql.ts), with that visit's channel and assistant, exactly as
 * event-rows.query.ts joins it. Primary-key reads of the page's rows only.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { VISIT_DIMENSION_SQL } from '../../reporting/visit-columns.sql.js';
import { isPaymentOfVisit } from '../../visits/visit-conversions.sql.js';

export interface PageMoneyRow {
  event_id: string;
  value_minor: number | null;
  currency: string | null;
  /** The open visit of a payment; null for other events (ClickHouse holds their visit). */
  payment_visit_id: string | null;
  payment_channel: string | null;
  payment_ai_source: string | null;
}

export async function readPageMoney(
  db: Kysely<DB>,
  siteId: string,
  eventIds: string[],
): Promise<PageMoneyRow[]> {
  if (eventIds.length === 0) return [];
  const { rows } = await sql<PageMoneyRow>`
    select stored.event_id, stored.value_minor, stored.currency, v.id as payment_visit_id,
      ${VISIT_DIMENSION_SQL['visit:channel']} as payment_channel,
      ${VISIT_DIMENSION_SQL['visit:ai_source']} as payment_ai_source
    from events stored
    left join lateral (
      select v.* from visits v
      where stored.visit_id is null and v.site_id = ${siteId} and v.visitor_id = stored.visitor_id
        and v.started_at <= stored.occurred_at and ${isPaymentOfVisit('stored')}
      limit 1
    ) v on true
    where stored.site_id = ${siteId} and stored.event_id in (${sql.join(eventIds)})
  `.execute(db);
  return rows;
}
