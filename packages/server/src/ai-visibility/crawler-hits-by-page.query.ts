/**
 * AI crawler hits per page, operator and purpose. The daily path rollup holds every hit ever
 * counted per (UTC day, operator, path) but not the purpose; the raw hits hold the purpose but
 * are kept 90 days (retention/retention.ts). So the rollup gives each total and the raw hits
 * split it by purpose; what the raw hits no longer cover is `unknown`. Spoofed hits are in
 * neither. Paths are read without their query string, as pages are everywhere else.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

export interface CrawlerPageRow {
  page: string;
  operator: string;
  purpose: string;
  hits: number;
}

/** The purpose of hits only the rollup still counts. */
export const UNKNOWN_PURPOSE = 'unknown';

/** A stored crawler path as a page: up to the query or fragment, '/' when nothing is left. */
const pageOf = (column: string) =>
  sql<string>`coalesce(nullif(substring(${sql.ref(column)} from '^[^?#]*'), ''), '/')`;

type CrawlerWindow = { siteId: string; from: string; to: string };

/** The UTC instants of the days `from`..`to`. */
export const crawlerInstants = (w: CrawlerWindow) => ({
  start: new Date(`${w.from}T00:00:00Z`),
  end: new Date(new Date(`${w.to}T00:00:00Z`).getTime() + 86_400_000),
});

/** The raw hits (not spoofed) of crawlers with a known operator per page, operator and purpose. */
export async function rawCrawlerHitsByPage(db: Kysely<DB>, w: CrawlerWindow): Promise<CrawlerPageRow[]> {
  const { start, end } = crawlerInstants(w);
  const { rows } = await sql<CrawlerPageRow>`
    select ${pageOf('h.path')} as page, h.operator, h.purpose, count(*)::int as hits
    from crawler_hits h
    where h.site_id = ${w.siteId} and h.occurred_at >= ${start} and h.occurred_at < ${end}
      and h.operator <> '' and h.verified is not false
    group by 1, 2, 3
  `.execute(db);
  return rows;
}

/**
 * Hits of crawlers with a known operator on the UTC days `from`..`to`; `split` is the raw hits
 * per purpose (rawCrawlerHitsByPage, or the same read in ClickHouse).
 */
export async function crawlerHitsByPage(
  db: Kysely<DB>,
  w: CrawlerWindow,
  split: CrawlerPageRow[],
): Promise<CrawlerPageRow[]> {
  const totals = await sql<{ page: string; operator: string; hits: number }>`
    select ${pageOf('d.path')} as page, d.operator, sum(d.hits)::int as hits
    from daily_crawler_paths d
    where d.site_id = ${w.siteId} and d.day >= ${w.from}::date and d.day <= ${w.to}::date
      and d.operator <> ''
    group by 1, 2
  `.execute(db);
  const key = (row: { page: string; operator: string }) => JSON.stringify([row.page, row.operator]);
  const rawHits = new Map<string, number>();
  for (const row of split) rawHits.set(key(row), (rawHits.get(key(row)) ?? 0) + row.hits);
  const unknown = totals.rows
    .map((row) => ({ ...row, purpose: UNKNOWN_PURPOSE, hits: row.hits - (rawHits.get(key(row)) ?? 0) }))
    .filter((row) => row.hits > 0);
  return [...split, ...unknown];
}
