/**
 * `npm run bench:stats`: the stats queries of the traffic report targets against one big site (10,000,000
 * pageviews, ≈ 3,000,000 visits, 1,000,000 visitors over 12 months) beside 50 small ones, on
 * PostgreSQL and, at a tenth of the size, on PGlite. The rows are seeded with SQL (through HTTP
 * it would take hours); each query runs through the API with a stats:read key, 3 warm-up runs
 * then `--runs` timed ones, beside the same answer computed plainly from the raw tables, whose
 * numbers must agree. Prints p50/p99, the plain p50 and the ratio, per database.
 * Flags: --scale <factor> (1), --runs <n> (20), --pg-only, --pglite-only, --keep (leave the
 * database and the PGlite folder), --clickhouse (the PostgreSQL run reads through a server with
 * ClickHouse in-process, npm chdb, the rows copied after the seed; PGlite is left out). Environment: BENCH_DATABASE_URL (an admin URL).
 */
import { parseArgs } from 'node:util';
import { currentLoad, describeMachine, runBenchmark } from '../lib.mjs';
import { runOnPglite, runOnPostgres } from './engines.mjs';
import { printTable } from './measure.mjs';

function readOptions() {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      runs: { type: 'string', default: '20' },
      'pg-only': { type: 'boolean', default: false },
      'pglite-only': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      clickhouse: { type: 'boolean', default: false },
    },
  });
  const scale = Number(values.scale);
  const runs = Number(values.runs);
  if (!(scale > 0 && scale <= 10))
    throw new Error(`--scale must be a number in (0, 10], got "${values.scale}"`);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be a positive integer, got "${values.runs}"`);
  if (values['pg-only'] && values['pglite-only'])
    throw new Error('--pg-only and --pglite-only exclude each other');
  if (values.clickhouse && values['pglite-only']) throw new Error('--clickhouse runs on PostgreSQL');
  return {
    scale,
    runs,
    keep: values.keep,
    clickhouse: values.clickhouse,
    postgres: !values['pglite-only'],
    pglite: !values['pg-only'] && !values.clickhouse,
  };
}

const thousands = (n) => n.toLocaleString('en-US');
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function printRun(run, runs) {
  const c = run.counts;
  printTable(run.title, run.rows);
  console.log(
    `\nbig site: ${thousands(c.pageviews)} pageviews, ${thousands(c.visits)} visits, ${thousands(c.visitors)} visitors, ` +
      `${thousands(c.custom_events)} custom events, ${thousands(c.identity_links)} identity links; 50 small sites beside it`,
  );
  console.log(
    `seed ${seconds(run.seedMs)}, VACUUM ANALYZE ${seconds(run.vacuumMs)}, ` +
      `rollups (npm run rollups) ${seconds(run.rollupMs)}` +
      (run.shipMs ? `, copy to ClickHouse (npm run clickhouse:ship) ${seconds(run.shipMs)}` : ''),
  );
  console.log(
    `${run.setting}; ${runs} timed runs per query after 3 warm-ups, sequential, one stats:read key per query`,
  );
}

async function main(cleanups) {
  const options = readOptions();
  const startLoad = currentLoad();
  const runs = [];
  if (options.postgres) {
    runs.push(await runOnPostgres(options, cleanups));
    printRun(runs.at(-1), options.runs);
  }
  if (options.pglite) {
    runs.push(await runOnPglite(options, cleanups));
    printRun(runs.at(-1), options.runs);
  }
  console.log(`\n---\n${describeMachine(startLoad)}`);
  if (runs.length > 1) for (const run of runs) printRun(run, options.runs);
}

await runBenchmark(main);
