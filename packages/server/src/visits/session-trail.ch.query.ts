/**
 * A visit's pageviews from ClickHouse, as trail rows (session-trail.query.ts): in the trail's
 * order, each with the next pageview's time, and merged in time order with the visit's
 * conversions, which PostgreSQL reads (they may be payments, tied to the visit there).
 */
import type { ClickHouse } from '../clickhouse/connection.js';
import { chMoment, chRows } from '../reporting/clickhouse/ch-read.js';
import { chSql, typed } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import { PROPERTIES_TRANSFER_LIMIT_BYTES, type TrailRow } from './session-trail.query.js';

/** The visit's first `limit` pageviews by time then event id (bytewise, as PostgreSQL's trail orders them). */
export async function chListTrailPageviews(
  ch: ClickHouse,
  scope: ChScope,
  q: { visitId: string; limit: number },
): Promise<TrailRow[]> {
  const ofVisit = chSql`type = 'pageview' AND visit_id = ${typed(q.visitId, 'UUID')}`;
  // One more than asked, whose time is the last one's next pageview.
  const rows = await chRows(
    ch,
    chSql`SELECT e.event_id AS event_id, e.name AS name, e.origin AS origin,
        toString(e.occurred_at) AS occurred_text, e.path AS page, e.properties AS properties
      FROM ${siteRows(scope, 'events', ofVisit)} AS e
      WHERE ${ofVisit}
      ORDER BY e.occurred_at, e.event_id
      LIMIT ${q.limit + 1}`,
  );
  return rows.slice(0, q.limit).map((row, i) => {
    const text = row.properties === null ? null : String(row.properties);
    const isOversized = text !== null && Buffer.byteLength(text, 'utf8') > PROPERTIES_TRANSFER_LIMIT_BYTES;
    const next = rows[i + 1];
    return {
      event_id: String(row.event_id),
      type: 'pageview',
      name: row.name === null ? null : String(row.name),
      origin: row.origin as TrailRow['origin'],
      is_payment: false,
      occurred_at: chMoment(row.occurred_text),
      page: row.page === null ? null : String(row.page),
      properties: text === null || isOversized ? null : JSON.parse(text),
      is_oversized: isOversized,
      // A pageview never carries a value (ingest/enrich.ts), and money is not copied.
      value_minor: null,
      currency: null,
      next_pageview_at: next ? chMoment(next.occurred_text) : null,
    };
  });
}

/**
 * Pageviews and conversions, each list in the trail's order, as one trail of at most `limit`
 * steps: by time, a pageview before a conversion of the same moment.
 */
export function mergeTrail(pageviews: TrailRow[], conversions: TrailRow[], limit: number): TrailRow[] {
  const trail: TrailRow[] = [];
  let [p, c] = [0, 0];
  while (trail.length < limit && (p < pageviews.length || c < conversions.length)) {
    const pageview = pageviews[p];
    const conversion = conversions[c];
    if (pageview && (!conversion || pageview.occurred_at.getTime() <= conversion.occurred_at.getTime())) {
      trail.push(pageview);
      p++;
    } else if (conversion) {
      trail.push(conversion);
      c++;
    }
  }
  return trail;
}
