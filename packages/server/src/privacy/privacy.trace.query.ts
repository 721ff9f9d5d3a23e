/**
 * The table-by-table trace check of the erasure tests: every text, JSON and UUID column of every
 * table is searched for the person's ids and keyed hashes, and every binary column for their
 * hashes in the rollups' people lists. The schema is read from the database itself, so a table
 * added later is checked without anyone remembering to.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { personHash } from '../reporting/rollups/people-sketch.js';

export interface Trace {
  table: string;
  column: string;
  rows: number;
}

const TEXT_TYPES = ['text', 'character varying', 'jsonb', 'json', 'uuid'];

export async function findTraces(
  db: Kysely<DB>,
  needles: { strings: string[]; people: string[] },
): Promise<Trace[]> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select c.table_name, c.column_name, c.data_type from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.column_name
  `.execute(db);
  const patterns = needles.strings.map((needle) => `%${needle.replaceAll(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const hashes = needles.people.map((person) => {
    const hash = personHash(person);
    const bytes = Buffer.alloc(8);
    bytes.writeUInt32BE(Math.floor(hash / 2 ** 32), 0);
    bytes.writeUInt32BE(hash % 2 ** 32, 4);
    return bytes;
  });
  const traces: Trace[] = [];
  for (const { table_name: table, column_name: column, data_type: type } of columns) {
    let condition: RawBuilder<unknown>;
    if (TEXT_TYPES.includes(type) && patterns.length > 0)
      condition = sql`${sql.ref(column)}::text like any(${patterns}::text[])`;
    else if (type === 'bytea' && hashes.length > 0)
      condition = sql.join(
        hashes.map((hash) => sql`position(${hash}::bytea in ${sql.ref(column)}) > 0`),
        sql` or `,
      );
    else continue;
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(table)} where ${condition}`.execute(db);
    const found = rows[0]?.n ?? 0;
    if (found > 0) traces.push({ table, column, rows: found });
  }
  return traces;
}
