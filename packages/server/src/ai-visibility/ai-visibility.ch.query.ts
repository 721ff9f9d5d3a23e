/**
 * The report's raw traffic in ClickHouse, as PostgreSQL reads it in crawler-hits-by-page.query.ts
 * (the raw crawler hits per page, operator and purpose) and ai-visits-by-page.query.ts (AI visits
 * per entry page and assistant). The daily path rollup and the money stay in PostgreSQL.
 */
import type { ClickHouse } from '../clickhouse/connection.js';
import { chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { chRaw, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import type { AiVisitRow } from './ai-visits-by-page.query.js';
import type { CrawlerPageRow } from './crawler-hits-by-page.query.js';

const inRange = (column: string, start: Date, end: Date) =>
  chSql`${chRaw(column)} >= ${chTime(start)} AND ${chRaw(column)} < ${chTime(end)}`;

/** rawCrawlerHitsByPage: the path up to its query or fragment ('/' when nothing is left). */
export async function chRawCrawlerHitsByPage(
  ch: ClickHouse,
  scope: ChScope,
  w: { start: Date; end: Date },
): Promise<CrawlerPageRow[]> {
  const range = inRange('occurred_at', w.start, w.end);
  const rows = await chRows(
    ch,
    chSql`SELECT if(extract(h.path, '^[^?#]*') = '', '/', extract(h.path, '^[^?#]*')) AS page,
      h.operator AS operator, h.purpose AS purpose, count() AS hits
    FROM ${siteRows(scope, 'crawler_hits', range)} AS h
    WHERE ${range} AND h.operator != '' AND coalesce(h.verified, true)
    GROUP BY page, operator, purpose`,
  );
  return rows.map((row) => ({
    page: String(row.page),
    operator: String(row.operator),
    purpose: String(row.purpose),
    hits: Number(row.hits),
  }));
}

/** aiVisitsByPage: visits from AI assistants per entry page (its path, copied with the visit). */
export async function chAiVisitsByPage(
  ch: ClickHouse,
  scope: ChScope,
  w: { start: Date; end: Date },
): Promise<AiVisitRow[]> {
  const range = inRange('started_at', w.start, w.end);
  const rows = await chRows(
    ch,
    chSql`SELECT assumeNotNull(v.entry_path) AS page, v.session_ai_source AS ai_source, count() AS visits
    FROM ${siteRows(scope, 'visits', range)} AS v
    WHERE ${range} AND v.source_kind = 'ai' AND v.entry_path IS NOT NULL
    GROUP BY page, ai_source`,
  );
  return rows.map((row) => ({
    page: String(row.page),
    ai_source: String(row.ai_source),
    visits: Number(row.visits),
  }));
}
