/**
 * Applies the numbered ClickHouse DDL files (packages/server/clickhouse/NNN_name.sql) not yet
 * recorded in `schema_migrations`, at every start, as db/migrate.ts does for PostgreSQL. Every
 * statement is `IF NOT EXISTS`, so two processes starting at once both succeed. With a cluster,
 * each table becomes a replicated `<name>_local` on every node behind a Distributed `<name>`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ClickHouse } from './connection.js';

const DDL_DIR = fileURLToPath(new URL('../../clickhouse/', import.meta.url));
const FILE_NAME = /^(\d{3})_[a-z0-9_]+\.sql$/;

/**
 * How each table's rows are spread over shards: by person, so one person's rows sit together
 * (DESIGN.md §13); crawler hits have no person and spread by their id.
 */
export const SHARD_KEYS: Record<string, string> = {
  events: 'cityHash64(site_id, visitor_id)',
  visits: 'cityHash64(site_id, visitor_id)',
  identity_links: 'cityHash64(site_id, visitor_id)',
  crawler_hits: 'cityHash64(site_id, id)',
};

export interface DdlFile {
  version: number;
  name: string;
  statements: string[];
}

export async function readDdlFiles(): Promise<DdlFile[]> {
  const names = (await readdir(DDL_DIR)).filter((name) => FILE_NAME.test(name)).sort();
  return Promise.all(
    names.map(async (name) => ({
      version: Number(FILE_NAME.exec(name)?.[1]),
      name,
      statements: splitStatements(await readFile(`${DDL_DIR}${name}`, 'utf8')),
    })),
  );
}

/** Statements end with `;` at the end of a line; `--` comment lines are dropped. */
export function splitStatements(text: string): string[] {
  const lines = text.split('\n').filter((line) => !line.trimStart().startsWith('--'));
  return lines
    .join('\n')
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/** A file's statements as they run on this installation: one node, or each table on a cluster. */
export function statementsFor(statements: string[], database: string, cluster: string | undefined): string[] {
  const named = statements.map((statement) => statement.replaceAll('{database}', database));
  if (!cluster) return named;
  return named.flatMap((statement) => {
    const table = /^CREATE TABLE IF NOT EXISTS \S+?\.(\w+) \(/.exec(statement)?.[1];
    if (!table) return [statement.replace(/^(CREATE \w+ IF NOT EXISTS \S+)/, `$1 ON CLUSTER ${cluster}`)];
    const shardKey = SHARD_KEYS[table];
    if (!shardKey) throw new Error(`clickhouse DDL: no shard key for table ${table}`);
    const local = statement
      .replace(`${database}.${table} (`, `${database}.${table}_local ON CLUSTER ${cluster} (`)
      .replace(
        /ENGINE = (\w*)MergeTree\(/,
        (_, kind: string) =>
          `ENGINE = Replicated${kind}MergeTree('/clickhouse/tables/{shard}/${database}/${table}_local', '{replica}', `,
      )
      .replace(/, \)/, ')')
      .replace(/\n?SETTINGS non_replicated_deduplication_window = \d+/, '');
    const distributed =
      `CREATE TABLE IF NOT EXISTS ${database}.${table} ON CLUSTER ${cluster} AS ${database}.${table}_local ` +
      `ENGINE = Distributed(${cluster}, ${database}, ${table}_local, ${shardKey})`;
    return [local, distributed];
  });
}

const recordTable = (ch: ClickHouse) => `${ch.database}.schema_migrations`;

export async function applyClickHouseSchema(ch: ClickHouse): Promise<number[]> {
  const { database, cluster } = ch;
  const onCluster = cluster ? ` ON CLUSTER ${cluster}` : '';
  await ch.client.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}${onCluster}` });
  const [record] = statementsFor(
    [
      `CREATE TABLE IF NOT EXISTS {database}.schema_migrations (version UInt32, name String, applied_at DateTime64(3, 'UTC'))
      ENGINE = ReplacingMergeTree ORDER BY version`,
    ],
    database,
    undefined,
  );
  // The record itself is one table per node, not sharded: every node knows what it has.
  await ch.client.command({
    query: (record ?? '').replace('schema_migrations (', `schema_migrations${onCluster} (`),
  });
  const result = await ch.client.query({
    query: `SELECT version FROM ${recordTable(ch)} FINAL`,
    format: 'JSONEachRow',
  });
  const applied = new Set((await result.json<{ version: number }>()).map((row) => Number(row.version)));
  const done: number[] = [];
  for (const file of await readDdlFiles()) {
    if (applied.has(file.version)) continue;
    for (const statement of statementsFor(file.statements, database, cluster))
      await ch.client.command({ query: statement });
    await ch.client.insert({
      table: recordTable(ch),
      values: [{ version: file.version, name: file.name, applied_at: clickHouseTime(new Date()) }],
      format: 'JSONEachRow',
    });
    done.push(file.version);
  }
  return done;
}

/** A moment as ClickHouse reads a DateTime64(3, 'UTC') value: `YYYY-MM-DD HH:MM:SS.mmm`. */
export const clickHouseTime = (at: Date) => at.toISOString().replace('T', ' ').replace('Z', '');
