/** SQL of crawler hits: the hits themselves and the daily counts per crawler and per path. */
import { type Selectable, sql, type Transaction } from 'kysely';
import type { CrawlerHitsTable, DailyCrawlerHitsTable, DailyCrawlerPathsTable } from '../db/crawler-types.js';
import type { DB } from '../db/types.js';

export type CrawlerHitRow = Omit<Selectable<CrawlerHitsTable>, 'ship_xid' | 'ship_seq'>;

/** A status the site answered with that is not a page: a redirect, not-found, an error. */
const isNon2xx = (status: number | null) => status !== null && (status < 200 || status > 299);

/** Adds the batch's hits to daily_crawler_paths, spoofed ones left out, in key order. */
async function addPathHits(
  trx: Transaction<DB>,
  rows: Pick<
    Selectable<CrawlerHitsTable>,
    'site_id' | 'occurred_at' | 'operator' | 'path' | 'status' | 'verified'
  >[],
): Promise<void> {
  const counts = new Map<string, Omit<Selectable<DailyCrawlerPathsTable>, 'path_key'>>();
  for (const row of rows) {
    if (row.verified === false) continue;
    const day = row.occurred_at.toISOString().slice(0, 10);
    const key = JSON.stringify([row.site_id, day, row.operator, row.path]);
    const entry = counts.get(key) ?? {
      site_id: row.site_id,
      day,
      operator: row.operator,
      path: row.path,
      hits: 0,
      non_2xx_hits: 0,
    };
    entry.hits += 1;
    if (isNon2xx(row.status)) entry.non_2xx_hits += 1;
    counts.set(key, entry);
  }
  const entries = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
  for (let start = 0; start < entries.length; start += 1000) {
    await trx
      .insertInto('daily_crawler_paths')
      .values(
        entries
          .slice(start, start + 1000)
          .map((entry) => ({ ...entry, path_key: sql<string>`md5(${entry.path})::uuid` })),
      )
      .onConflict((oc) =>
        oc.columns(['site_id', 'day', 'operator', 'path_key']).doUpdateSet({
          hits: sql`daily_crawler_paths.hits + excluded.hits`,
          non_2xx_hits: sql`daily_crawler_paths.non_2xx_hits + excluded.non_2xx_hits`,
        }),
      )
      .execute();
  }
}

/** Writes the hits and adds them to daily_crawler_hits (spoofed ones apart) and daily_crawler_paths. */
export async function storeHits(trx: Transaction<DB>, rows: CrawlerHitRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 1000) {
    await trx
      .insertInto('crawler_hits')
      .values(rows.slice(start, start + 1000))
      .execute();
  }
  await addDailyHits(trx, rows);
  await addPathHits(trx, rows);
}

/** Adds the batch's hits to daily_crawler_hits per site, day and crawler; spoofed ones count apart. */
async function addDailyHits(trx: Transaction<DB>, rows: CrawlerHitRow[]): Promise<void> {
  const daily = new Map<string, Selectable<DailyCrawlerHitsTable>>();
  for (const row of rows) {
    const day = row.occurred_at.toISOString().slice(0, 10);
    const key = `${row.site_id}|${day}|${row.crawler}`;
    const entry = daily.get(key) ?? {
      site_id: row.site_id,
      day,
      crawler: row.crawler,
      operator: row.operator,
      purpose: row.purpose,
      hits: 0,
      verified_hits: 0,
      spoofed_hits: 0,
    };
    if (row.verified === false) entry.spoofed_hits += 1;
    else entry.hits += 1;
    if (row.verified === true) entry.verified_hits += 1;
    daily.set(key, entry);
  }
  if (daily.size > 0) {
    await trx
      .insertInto('daily_crawler_hits')
      .values([...daily.values()])
      .onConflict((oc) =>
        oc.columns(['site_id', 'day', 'crawler']).doUpdateSet({
          hits: sql`daily_crawler_hits.hits + excluded.hits`,
          verified_hits: sql`daily_crawler_hits.verified_hits + excluded.verified_hits`,
          spoofed_hits: sql`daily_crawler_hits.spoofed_hits + excluded.spoofed_hits`,
        }),
      )
      .execute();
  }
}
