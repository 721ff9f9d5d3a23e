/**
 * realtime.query.ts in ClickHouse: the same four reads of the last minutes (per-minute series,
 * active visitors, top pages, top sources) over the site's copied and uncopied events, with the
 * same orders and ties. An event carries its visit's channel and assistant, so sources need no
 * join; a row without a visit is left out, as PostgreSQL's join to visits leaves it.
 */
import type { ClickHouse } from '../clickhouse/connection.js';
import { chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { type ChFragment, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import type { ActivityWindow, MinuteRow } from './realtime.query.js';

/** Pageviews and the custom events browsers sent, in the window (bounds included). */
function activity(scope: ChScope, w: ActivityWindow): { rows: ChFragment; where: ChFragment } {
  const where = chSql`(type = 'pageview' OR (type = 'event' AND origin = 'browser'))
    AND occurred_at >= ${chTime(w.since)} AND occurred_at <= ${chTime(w.until)}`;
  return { rows: siteRows(scope, 'events', where), where };
}

export async function chActivityByMinute(
  ch: ClickHouse,
  scope: ChScope,
  w: ActivityWindow,
): Promise<MinuteRow[]> {
  const a = activity(scope, w);
  const rows = await chRows(
    ch,
    chSql`SELECT intDiv(toUnixTimestamp64Milli(occurred_at), 60000) AS minute,
        countIf(type = 'pageview') AS pageviews, uniqExact(visitor_id) AS visitors
      FROM ${a.rows} WHERE ${a.where} GROUP BY minute`,
  );
  return rows.map((row) => ({
    minute: Number(row.minute),
    pageviews: Number(row.pageviews),
    visitors: Number(row.visitors),
  }));
}

export async function chActiveVisitors(ch: ClickHouse, scope: ChScope, w: ActivityWindow): Promise<number> {
  const a = activity(scope, w);
  const rows = await chRows(
    ch,
    chSql`SELECT uniqExact(visitor_id) AS visitors FROM ${a.rows} WHERE ${a.where}`,
  );
  return Number(rows[0]?.visitors ?? 0);
}

export async function chTopPages(ch: ClickHouse, scope: ChScope, w: ActivityWindow, limit: number) {
  const where = chSql`type = 'pageview' AND occurred_at >= ${chTime(w.since)} AND occurred_at <= ${chTime(w.until)}`;
  const rows = await chRows(
    ch,
    chSql`SELECT assumeNotNull(path) AS page, uniqExact(visitor_id) AS visitors
      FROM ${siteRows(scope, 'events', where)} WHERE ${where} AND path IS NOT NULL
      GROUP BY page ORDER BY visitors DESC, page ASC LIMIT ${limit}`,
  );
  return rows.map((row) => ({ page: row.page as string, visitors: Number(row.visitors) }));
}

export async function chTopSources(ch: ClickHouse, scope: ChScope, w: ActivityWindow, limit: number) {
  const a = activity(scope, w);
  const rows = await chRows(
    ch,
    chSql`SELECT if(source_kind = 'ai', 'ai', session_ai_source) AS channel,
        if(source_kind = 'ai', session_ai_source, NULL) AS ai_source, uniqExact(visitor_id) AS visitors
      FROM ${a.rows} WHERE ${a.where} AND visit_id IS NOT NULL
      GROUP BY channel, ai_source
      ORDER BY visitors DESC, channel ASC, ai_source ASC NULLS FIRST LIMIT ${limit}`,
  );
  return rows.map((row) => ({
    channel: row.channel as string,
    ai_source: row.ai_source as string | null,
    visitors: Number(row.visitors),
  }));
}
