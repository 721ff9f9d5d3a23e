/**
 * Imported daily counts (`imported_days`, imports/) grouped as a stats query groups: by its time
 * bucket (UTC days, weeks, months) and the value of one dimension. The sums are raw counts —
 * bounces and seconds, not rates — so they can be added to live traffic's figures exactly.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { type Dimension, isTimeDimension } from '../stats-vocabulary.js';
import { dayBucketSql } from '../visit-columns.sql.js';

export interface ImportedCounts {
  visitors: number;
  visits: number;
  pageviews: number;
  bounces: number;
  duration_seconds: number;
  events: number;
  /** Imported days summed into the group: people are counted once per day. */
  days: number;
}

export interface ImportedGroup {
  dimensions: (string | null)[];
  counts: ImportedCounts;
}

/**
 * The groups of `dimensions` over `[from, to]` from rows of `dimension` ('' for the day totals).
 * A dimension value of '' reads as null, as in live reports.
 */
export async function importedGroups(
  db: Kysely<DB>,
  q: { siteId: string; from: string; to: string; dimensions: Dimension[] },
  dimension: string,
): Promise<ImportedGroup[]> {
  const columns = q.dimensions.map((name) =>
    isTimeDimension(name) ? dayBucketSql(name, sql`d.day`) : sql<string | null>`nullif(d.value, '')`,
  );
  const selected = columns.map((column, i) => sql`${column} as ${sql.ref(`g${i}`)}`);
  const groupBy =
    columns.length === 0 ? sql`` : sql`group by ${sql.join(columns.map((_, i) => sql.lit(i + 1)))}`;
  const { rows } = await sql<Record<string, string | number | null>>`
    select ${sql.join([
      ...selected,
      sql`sum(d.visitors)::float8 as visitors`,
      sql`sum(d.visits)::float8 as visits`,
      sql`sum(d.pageviews)::float8 as pageviews`,
      sql`sum(d.bounces)::float8 as bounces`,
      sql`sum(d.duration_seconds)::float8 as duration_seconds`,
      sql`sum(d.events)::float8 as events`,
      sql`count(distinct d.day)::float8 as days`,
    ])}
    from imported_days d
    where d.site_id = ${q.siteId} and d.dimension = ${dimension}
      and d.day >= ${q.from}::date and d.day <= ${q.to}::date
    ${groupBy}
    having count(*) > 0`.execute(db);
  return rows.map((row) => ({
    dimensions: q.dimensions.map((_, i) => (row[`g${i}`] ?? null) as string | null),
    counts: {
      visitors: Number(row.visitors),
      visits: Number(row.visits),
      pageviews: Number(row.pageviews),
      bounces: Number(row.bounces),
      duration_seconds: Number(row.duration_seconds),
      events: Number(row.events),
      days: Number(row.days),
    },
  }));
}

/** The first and last imported day of a site, UTC; null when it has none. */
export async function importedDayRange(db: Kysely<DB>, siteId: string) {
  const { rows } = await sql<{ from: string | null; to: string | null }>`
    select to_char(min(day), 'YYYY-MM-DD') as from, to_char(max(day), 'YYYY-MM-DD') as to
    from imported_days where site_id = ${siteId} and dimension = ''`.execute(db);
  const [row] = rows;
  return row?.from && row.to ? { from: row.from, to: row.to } : null;
}
