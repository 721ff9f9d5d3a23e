/**
 * `npm run clickhouse:ship`: copies every committed traffic row to the ClickHouse of
 * CLICKHOUSE_URL now (applying its DDL first), prints how many, and exits. For a first copy of
 * an existing installation's history, and for benchmarks; the background shipper does the same a
 * batch at a time. With `chdb://`, no other process may have the folder open.
 */
import { loadConfig } from '../config.js';
import { configuredDatabase, openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { systemClock } from '../lib/clock.js';
import { openClickHouse } from './connection.js';
import { createClickHouseEngine } from './engine.js';
import { shippedRows } from './ship-batches.query.js';

const config = loadConfig();
if (!config.clickhouse) {
  process.stderr.write('touchtrail: CLICKHOUSE_URL is not set: there is nothing to copy to\n');
  process.exit(1);
}
const database = await openDatabase(configuredDatabase(config));
const clickhouse = await openClickHouse(config.clickhouse);
try {
  await migrate(database.db);
  const engine = createClickHouseEngine({ db: database.db, clock: systemClock, clickhouse });
  await engine.ensureSchema();
  const started = performance.now();
  const before = await shippedRows(database.db);
  await engine.shipper.shipAll();
  const after = await shippedRows(database.db);
  const copied = Object.entries(after).map(([stream, rows]) => `${rows - (before[stream] ?? 0)} ${stream}`);
  process.stdout.write(
    `copied ${copied.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
} finally {
  await clickhouse.close();
  await database.close();
}
