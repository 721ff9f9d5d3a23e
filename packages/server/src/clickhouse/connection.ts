/**
 * Opens the ClickHouse client of CLICKHOUSE_URL: the official `@clickhouse/client` over HTTP, or
 * over the in-process engine of npm `chdb` (loaded only when asked for, since it is large and not
 * part of the default install). Either way the same SQL runs through the same client.
 */
import {
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  ClickHouseLogLevel,
  createClient,
} from '@clickhouse/client';
import type { ClickHouseConfig } from '../config.js';

export interface ClickHouse {
  client: ClickHouseClient;
  /** The database every table name is qualified with (the client's default is not relied on). */
  database: string;
  cluster: string | undefined;
  close(): Promise<void>;
}

type ChdbConnection = NonNullable<ClickHouseClientConfigOptions['connection']>;

/** Thrown when `chdb://` is configured and npm `chdb` is not installed. */
export class ChdbMissingError extends Error {}

/**
 * 64-bit integers as strings, so no count is rounded on its way to JavaScript; `FINAL` merged
 * within each partition, in parallel, which is exact here: every partition key is a function of
 * a sorting-key column (packages/server/clickhouse/), so two versions of a row never sit in two
 * partitions (14–16% off the page reads at 10M pageviews, bench/RESULTS.md). Written into each
 * statement rather than set per call: the in-process engine keeps a setting sent with one call
 * for the calls after it.
 */
export const READ_SETTINGS =
  'SETTINGS output_format_json_quote_64bit_integers = 1, do_not_merge_across_partitions_select_final = 1';

/** The client's own log prints stack traces; failures reach our log as one line each instead. */
const QUIET = { level: ClickHouseLogLevel.OFF };

/** Fails fast: a report waits at most this long before it falls back or answers 503. */
const REQUEST_TIMEOUT_MS = 30_000;

export async function openClickHouse(config: ClickHouseConfig): Promise<ClickHouse> {
  if (config.chdbPath !== undefined) {
    let createChdbConnection: (options: { path: string }) => ChdbConnection;
    try {
      // A specifier in a variable: the type check and the build do not need the optional package.
      const specifier = 'chdb/connection';
      ({ createChdbConnection } = (await import(specifier)) as {
        createChdbConnection: typeof createChdbConnection;
      });
    } catch {
      throw new ChdbMissingError(
        'CLICKHOUSE_URL is chdb:// but the npm package chdb is not installed: run `npm install chdb` (about 570 MB), or set an http(s):// URL',
      );
    }
    const connection = createChdbConnection({ path: config.chdbPath });
    const client = createClient({ connection, log: QUIET });
    await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${config.database}` });
    return { client, database: config.database, cluster: undefined, close: () => client.close() };
  }
  const client = createClient({
    url: config.url,
    username: config.username ?? 'default',
    password: config.password ?? '',
    database: config.database,
    request_timeout: REQUEST_TIMEOUT_MS,
    application: 'touchtrail',
    log: QUIET,
  });
  return { client, database: config.database, cluster: config.cluster, close: () => client.close() };
}
