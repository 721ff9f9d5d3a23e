/**
 * The ClickHouse DDL on the real engine: applied once and recorded (a second start applies
 * nothing), the column lists reports use match the tables, and the cluster form of every
 * statement (replicated `_local` tables ON CLUSTER behind Distributed ones) is valid ClickHouse
 * SQL. A cluster cannot run in-process, so the cluster statements are parsed, not run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chdbInstalled, openTestClickHouse } from '../test/clickhouse.js';
import type { ClickHouse } from './connection.js';
import { applyClickHouseSchema, readDdlFiles, SHARD_KEYS, statementsFor } from './schema.query.js';
import { TRAFFIC_COLUMNS } from './traffic-columns.js';

describe.runIf(chdbInstalled)('the ClickHouse schema', () => {
  let ch: ClickHouse;
  beforeAll(async () => {
    ch = await openTestClickHouse();
  });
  afterAll(() => ch?.close());

  it('is applied once and recorded', async () => {
    const files = await readDdlFiles();
    expect(await applyClickHouseSchema(ch)).toEqual(files.map((file) => file.version));
    expect(await applyClickHouseSchema(ch)).toEqual([]);
  });

  it('has the columns, in order, that reads of uncopied rows give it', async () => {
    for (const [table, columns] of Object.entries(TRAFFIC_COLUMNS)) {
      const result = await ch.client.query({
        query: `DESCRIBE TABLE ${ch.database}.${table}`,
        format: 'JSONEachRow',
      });
      const described = (await result.json()) as { name: string; type: string }[];
      expect(
        described.map(({ name, type }) => [name, type]),
        table,
      ).toEqual(Object.entries(columns));
    }
  });

  it('partitions each table by a function of a sorting-key column, as FINAL within partitions needs', async () => {
    const result = await ch.client.query({
      query: `SELECT name, partition_key, sorting_key FROM system.tables
        WHERE database = {database:String} AND partition_key != '' ORDER BY name`,
      query_params: { database: ch.database },
      format: 'JSONEachRow',
    });
    const tables = (await result.json()) as { name: string; partition_key: string; sorting_key: string }[];
    expect(tables.map((table) => table.name)).toEqual(['crawler_hits', 'events', 'visits']);
    for (const { name, partition_key, sorting_key } of tables) {
      // toYYYYMM(t) beside toDate(t) in the sorting key: one day is never in two months.
      const column = /^toYYYYMM\((\w+)\)$/.exec(partition_key)?.[1];
      expect(sorting_key.split(', '), name).toContain(`toDate(${column})`);
    }
  });

  it('parses on a cluster: replicated local tables behind distributed ones, sharded by person', async () => {
    const statements = (await readDdlFiles()).flatMap((file) =>
      statementsFor(file.statements, 'analytics', 'main_cluster'),
    );
    for (const table of Object.keys(SHARD_KEYS)) {
      expect(statements.some((s) => s.includes(`analytics.${table}_local ON CLUSTER main_cluster (`))).toBe(
        true,
      );
      expect(
        statements.some((s) =>
          s.includes(`Distributed(main_cluster, analytics, ${table}_local, ${SHARD_KEYS[table]})`),
        ),
      ).toBe(true);
    }
    for (const statement of statements) {
      expect(statement).not.toMatch(/non_replicated_deduplication_window/);
      const parsed = await ch.client.query({ query: `EXPLAIN AST ${statement}`, format: 'TabSeparated' });
      expect(await parsed.text(), statement).toMatch(/CreateQuery/);
    }
  });
});
