/** How many traffic rows are behind the shipper's cursors, for the ClickHouse test helpers. */
import { type Kysely, sql } from 'kysely';
import { STREAMS } from '../clickhouse/ship-batches.query.js';
import type { DB } from '../db/types.js';

export async function rowsNotCopied(db: Kysely<DB>): Promise<number> {
  let total = 0;
  for (const stream of STREAMS) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::float8 as n from ${sql.table(stream)} t, clickhouse_ship_cursors c
      where c.stream = ${stream} and (t.ship_xid, t.ship_seq) > (c.ship_xid, c.ship_seq)`.execute(db);
    total += Number(rows[0]?.n ?? 0);
  }
  return total;
}
