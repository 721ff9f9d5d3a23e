/**
 * PostgreSQL for `bench/ingest.mjs`: a throwaway database per run, dropped by a clean-up step
 * (also on failure and Ctrl-C), and the count of acknowledged events that reached it.
 */
import pg from 'pg';

const COUNT_CHUNK_SIZE = 10_000;

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates `touchtrail_bench_<pid>_<time>` through `adminUrl` and resolves to its URL. Dropping it
 * uses `with (force)` (PostgreSQL 13+), so a server killed mid-run cannot keep it alive.
 */
export async function createThrowawayDatabase(adminUrl, cleanups) {
  const name = `touchtrail_bench_${process.pid}_${Date.now()}`;
  try {
    await withClient(adminUrl, (client) => client.query(`create database "${name}"`));
  } catch (error) {
    throw new Error(
      `could not create a database through ${redact(adminUrl)} (set BENCH_DATABASE_URL): ${error.message}`,
    );
  }
  // KEEP_DATABASE=1 leaves the database in place for inspection (EXPLAIN) and prints its name.
  if (process.env.KEEP_DATABASE === '1') process.stderr.write(`keeping database ${name}\n`);
  else {
    cleanups.add(() =>
      withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)),
    );
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** How many of `eventIds` the events table holds, and how many rows it holds in all. */
export function countStoredEvents(databaseUrl, eventIds) {
  return withClient(databaseUrl, async (client) => {
    let found = 0;
    for (let start = 0; start < eventIds.length; start += COUNT_CHUNK_SIZE) {
      const chunk = eventIds.slice(start, start + COUNT_CHUNK_SIZE);
      const { rows } = await client.query('select count(*)::int as n from events where event_id = any($1)', [
        chunk,
      ]);
      found += rows[0].n;
    }
    const { rows } = await client.query('select count(*)::int as n from events');
    return { found, total: rows[0].n };
  });
}

function redact(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
