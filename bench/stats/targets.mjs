/**
 * What the stats benchmark runs against: the built server on PostgreSQL or on PGlite, the
 * account, sites and read keys made through its API, and a plain SQL handle on the same
 * database (`query(text, params)` resolving to rows) for the seed and the plain queries.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { startBuiltServer } from '../lib.mjs';

const READ_SCOPE = 'stats:read';
const MAX_RATE_LIMIT_WAITS = 5;

/**
 * The built server on `database` ({DATABASE_URL} or {DATA_DIR}); none of the shell's storage
 * settings. On PostgreSQL it runs as `--role api`, without the background jobs: the stats
 * rollup job must not build days the bench is still seeding.
 */
export function startServer(database, setupToken, cleanups) {
  const { REDIS_URL, DATA_DIR, DATABASE_URL, ...env } = process.env;
  return startBuiltServer({ ...env, ...database, SETUP_TOKEN: setupToken, LOG_LEVEL: 'warn' }, cleanups, [], {
    serverArgs: database.DATABASE_URL ? ['--role', 'api'] : [],
  });
}

export const newSetupToken = () => randomBytes(16).toString('hex');

async function postJson(url, body, headers = {}) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 429 && attempt < MAX_RATE_LIMIT_WAITS) {
      await new Promise((resolve) =>
        setTimeout(resolve, (Number(response.headers.get('retry-after')) || 5) * 1000),
      );
      continue;
    }
    if (response.status !== 201) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  }
}

/**
 * The first account, the big site and `smallSites` small ones, and `readKeys` keys with
 * stats:read only (one per query: each key has its own budget of 120 reads a minute).
 */
export async function createBenchAccount(baseUrl, setupToken, { smallSites, readKeys }) {
  const { api_key: ownerKey } = await postJson(`${baseUrl}/v1/setup`, {
    setup_token: setupToken,
    email: 'bench@example.com',
    password: 'a bench password',
  });
  const auth = { authorization: `Bearer ${ownerKey}` };
  const createSite = async (domain) => ({
    domain,
    snippetKey: (await postJson(`${baseUrl}/v1/sites`, { domain }, auth)).snippet_key,
  });
  const big = await createSite('big.example.com');
  const small = [];
  for (let i = 1; i <= smallSites; i += 1)
    small.push(await createSite(`small-${String(i).padStart(2, '0')}.example.com`));
  const keys = [];
  for (let i = 1; i <= readKeys; i += 1) {
    const key = await postJson(
      `${baseUrl}/v1/account/keys`,
      { name: `bench stats ${i}`, scopes: [READ_SCOPE] },
      auth,
    );
    keys.push(key.api_key);
  }
  return { big, small, keys };
}

/** Each site with its internal id and currency, read from the database. */
export async function resolveSites(db, sites) {
  const rows = await db.query('select id, snippet_key, currency from sites');
  const bySnippet = new Map(rows.map((row) => [row.snippet_key, row]));
  return sites.map((site) => {
    const row = bySnippet.get(site.snippetKey);
    if (!row) throw new Error(`site ${site.domain} is not in the database`);
    return { ...site, id: row.id, currency: row.currency };
  });
}

const withAdmin = async (adminUrl, work) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

/** Drops `name` if it exists (with force: a server left running cannot keep it) and creates it; resolves to its URL. */
export async function recreateDatabase(adminUrl, name) {
  await withAdmin(adminUrl, async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export const dropDatabase = (adminUrl, name) =>
  withAdmin(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));

export async function openPostgres(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async (text, params) => (await client.query(text, params)).rows,
    exec: (text) => client.query(text),
    close: () => client.end(),
  };
}

/** PGlite on the server's data folder: the server must not have it open at the same time. */
export async function openPglite(dataDir) {
  const db = await PGlite.create({ dataDir });
  return {
    query: async (text, params) => (await db.query(text, params)).rows,
    exec: (text) => db.exec(text),
    close: () => db.close(),
  };
}

/** The settings that shape PostgreSQL's plans, to print beside the figures. */
export async function describePostgres(db) {
  const [row] = await db.query(
    `select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers,
       current_setting('work_mem') as work_mem,
       current_setting('max_parallel_workers_per_gather') as parallel_workers`,
  );
  return `PostgreSQL ${row.version}, shared_buffers ${row.shared_buffers}, work_mem ${row.work_mem}, max_parallel_workers_per_gather ${row.parallel_workers}`;
}
