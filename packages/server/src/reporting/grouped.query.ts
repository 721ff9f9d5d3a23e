/**
 * Runs one grouped read of a stats query: the rows a grain (visit-grain.sql.ts and its siblings)
 * describes, grouped by the dimension expressions, with the metric expressions per group.
 * Every value from the query is a parameter; names pick entries from fixed maps and never reach
 * SQL themselves.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';

/**
 * Per hash or sort of one read. Grouping a month of a large site's visits per person (about
 * 300,000 rows) spills to disk within PostgreSQL's default 4 MB and then gains nothing over a
 * sort; in memory it is about twice as fast (bench/RESULTS.md, "Counting people faster").
 */
const READ_WORK_MEM = '32MB';

/**
 * Runs a read with READ_WORK_MEM and no JIT compilation, in a transaction of its own so the
 * settings end with it; with `snapshot`, all its statements see one snapshot (repeatable read).
 * Inside such a transaction already, the read joins it.
 */
export function withReadMemory<R>(
  db: Kysely<DB>,
  read: (trx: Kysely<DB>) => Promise<R>,
  { snapshot = false }: { snapshot?: boolean } = {},
): Promise<R> {
  if (db.isTransaction) return read(db);
  const transaction = db.transaction();
  return (snapshot ? transaction.setIsolationLevel('repeatable read') : transaction).execute(async (trx) => {
    await sql`set local work_mem = ${sql.lit(READ_WORK_MEM)}`.execute(trx);
    // Compiling a read costs more than it saves at these sizes: 170 ms of a 220 ms page read
    // over a day of a large site's pageviews (bench/RESULTS.md, "Rollups").
    await sql`set local jit = off`.execute(trx);
    return read(trx);
  });
}

export interface Grouped {
  /** `from … where …` of the rows. */
  rows: RawBuilder<unknown>;
  dimensions: RawBuilder<unknown>[];
  metrics: RawBuilder<unknown>[];
  /** More group columns read back beside the dimensions (a currency, a day). */
  extras?: RawBuilder<unknown>[];
}

export interface GroupedRow {
  dimensions: (string | null)[];
  metrics: number[];
  extras: unknown[];
}

/** Order by aliases: `d0`… for dimensions, `m0`… for metrics. */
export interface GroupedPage {
  orderBy: { alias: string; direction: 'asc' | 'desc' }[];
  limit: number | null;
  offset: number;
}

export async function readGroups(db: Kysely<DB>, g: Grouped, page?: GroupedPage): Promise<GroupedRow[]> {
  const extras = g.extras ?? [];
  const columns = [...aliased(g.dimensions, 'd'), ...aliased(extras, 'x'), ...aliased(g.metrics, 'm')];
  const groups = sql`select ${sql.join(columns)} ${g.rows} ${groupBy(g.dimensions.length + extras.length)}`;
  // Wrapped, so the order can name the output columns inside expressions (a collation).
  const query = page
    ? sql`select * from (${groups}) g
        order by ${orderSql(page, g.dimensions.length)} limit ${page.limit} offset ${page.offset}`
    : groups;
  const { rows } = await withReadMemory(db, (trx) => sql<Record<string, unknown>>`${query}`.execute(trx));
  return rows.map((row) => ({
    dimensions: g.dimensions.map((_, i) => (row[`d${i}`] ?? null) as string | null),
    metrics: g.metrics.map((_, i) => Number(row[`m${i}`] ?? 0)),
    extras: extras.map((_, i) => row[`x${i}`]),
  }));
}

/** How many groups there are before `limit` and `offset`. */
export async function countGroups(db: Kysely<DB>, g: Grouped): Promise<number> {
  if (g.dimensions.length === 0) return 1;
  const { rows } = await withReadMemory(db, (trx) =>
    sql<{ total: number }>`
      select count(*)::float8 as total
      from (select ${sql.join(aliased(g.dimensions, 'd'))} ${g.rows} ${groupBy(g.dimensions.length)}) g
    `.execute(trx),
  );
  return Number(rows[0]?.total ?? 0);
}

const aliased = (expressions: RawBuilder<unknown>[], prefix: string) =>
  expressions.map((expression, i) => sql`${expression} as ${sql.ref(`${prefix}${i}`)}`);

// Positions, not expressions: each use of a parameter is a new one, so PostgreSQL could not tell
// that a repeated time bucket is the same expression.
const groupBy = (count: number) =>
  count === 0 ? sql`` : sql`group by ${sql.raw([...Array(count).keys()].map((i) => i + 1).join(', '))}`;

/**
 * The requested order, then every dimension ascending so pages never shuffle between calls.
 * Byte order ("C"), so the database and the planner's own sorting (row-order.ts) agree.
 */
function orderSql(page: GroupedPage, dimensionCount: number) {
  const keys = page.orderBy.map(
    ({ alias, direction }) =>
      `${alias}${alias.startsWith('d') ? ' collate "C"' : ''} ${direction} nulls last`,
  );
  for (let i = 0; i < dimensionCount; i++) keys.push(`d${i} collate "C" asc nulls last`);
  if (keys.length === 0) keys.push('1');
  return sql.raw(keys.join(', '));
}
