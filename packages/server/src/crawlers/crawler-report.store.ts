/** The queries behind the crawler report, each returning one part of it. */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { creditedSourceOf } from '../revenue/credited-source.sql.js';

export interface Window {
  siteId: string;
  from: string;
  to: string;
}

const endOf = (day: string) => new Date(`${day}T00:00:00Z`).getTime() + 86_400_000;

/** Hits per crawler and day, from the daily rollup, in day and then crawler byte order. */
export function crawlerDays(db: Kysely<DB>, w: Window) {
  return db
    .selectFrom('daily_crawler_hits')
    .select(['day', 'crawler', 'operator', 'purpose', 'hits', 'verified_hits', 'spoofed_hits'])
    .where('site_id', '=', w.siteId)
    .where('day', '>=', w.from)
    .where('day', '<=', w.to)
    .orderBy('day')
    .orderBy(sql`crawler collate "C"`)
    .execute();
}

/** The most fetched paths in the window, ties in path byte order (spoofed hits are not in the rollup). */
export function topPaths(db: Kysely<DB>, w: Window, limit = 20) {
  return db
    .selectFrom('daily_crawler_paths')
    .select([
      'path',
      (eb) => eb.fn.sum<number>('hits').as('hits'),
      (eb) => eb.fn.sum<number>('non_2xx_hits').as('non_2xx_hits'),
    ])
    .where('site_id', '=', w.siteId)
    .where('day', '>=', w.from)
    .where('day', '<=', w.to)
    .groupBy(['path_key', 'path'])
    .orderBy('hits', 'desc')
    .orderBy(sql`path collate "C"`)
    .limit(limit)
    .execute();
}

/**
 * Hits per operator; distinct paths answered 2xx at least once on a day (`pages`), and the hits
 * and distinct paths answered otherwise.
 */
export function operatorFetches(db: Kysely<DB>, w: Window) {
  return db
    .selectFrom('daily_crawler_paths')
    .select([
      'operator',
      (eb) => eb.fn.sum<number>('hits').as('hits'),
      sql<number>`count(distinct path_key) filter (where hits > non_2xx_hits)`.as('pages'),
      (eb) => eb.fn.sum<number>('non_2xx_hits').as('non_2xx_hits'),
      sql<number>`count(distinct path_key) filter (where non_2xx_hits > 0)`.as('non_2xx_paths'),
    ])
    .where('site_id', '=', w.siteId)
    .where('operator', '!=', '')
    .where('day', '>=', w.from)
    .where('day', '<=', w.to)
    .groupBy('operator')
    .execute();
}

/** Visits per assistant label, from the daily rollup. */
export function assistantVisits(db: Kysely<DB>, w: Window, labels: string[]) {
  if (labels.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('daily_visits')
    .select(['session_ai_source as source', (eb) => eb.fn.sum<number>('visits').as('visits')])
    .where('site_id', '=', w.siteId)
    .where('day', '>=', w.from)
    .where('day', '<=', w.to)
    .where('session_ai_source', 'in', labels)
    .groupBy('session_ai_source')
    .execute();
}

/**
 * Conversion events counted for each label under a model: each once, for its credited source
 * (revenue/credited-source.ts; the largest share, ties by source name).
 */
export async function creditedConversions(db: Kysely<DB>, w: Window, model: string, labels: string[]) {
  if (labels.length === 0) return [];
  const { rows } = await sql<{ source: string; conversions: number }>`
    select credit.source, count(*)::int as conversions
    from events e
    join lateral ${creditedSourceOf({ siteId: sql.ref('e.site_id'), eventId: sql.ref('e.event_id'), model })} credit on true
    where e.site_id = ${w.siteId} and e.type = 'event'
      and e.occurred_at >= ${new Date(`${w.from}T00:00:00Z`)} and e.occurred_at < ${new Date(endOf(w.to))}
      and credit.source in (${sql.join(labels)})
    group by credit.source
  `.execute(db);
  return rows;
}

/**
 * Payment revenue credited to each label under a model, per day and currency. Amounts are the
 * exact decimal text of fractional minor units (a share of a split payment has six decimals).
 */
export function creditedRevenue(db: Kysely<DB>, w: Window, model: string, labels: string[]) {
  if (labels.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('daily_revenue')
    .select([
      'day',
      'source',
      'currency',
      sql<string>`gross_minor::text`.as('gross_minor'),
      sql<string>`refunded_minor::text`.as('refunded_minor'),
      'conversions',
    ])
    .where('site_id', '=', w.siteId)
    .where('model', '=', model)
    .where('day', '>=', w.from)
    .where('day', '<=', w.to)
    .where('source', 'in', labels)
    .execute();
}

/** The stored address lists of crawler operators (crawler-ranges.ts): when, and how many ranges. */
export function addressLists(db: Kysely<DB>) {
  return db
    .selectFrom('crawler_ip_ranges')
    .select(['crawler', 'fetched_at', sql<number>`jsonb_array_length(prefixes)`.as('ranges')])
    .execute();
}
