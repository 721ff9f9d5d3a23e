/**
 * Prepares one migrated database for the whole run, so each test file starts from a copy:
 * on PGlite a snapshot of the data folder, on PostgreSQL (when DATABASE_URL is set) a template
 * database. Test files get their copy through `openTestDatabase()` in ./database.ts.
 *
 * It also builds the server, tracker and dashboard when they are stale, once, before any test
 * file runs: files that start the compiled server or open the dashboard in Chromium run side by
 * side, and two builds at once would overwrite each other's output.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
  }
}

export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

function buildIfStale() {
  // For a narrow run of files that need no build (set by hand; CI never sets it).
  if (process.env.TOUCHTRAIL_TEST_SKIP_BUILD === '1') return;
  const build = spawnSync(
    process.execPath,
    ['-e', "import('./scripts/server-dist.mjs').then(async (m) => process.exit(await m.buildIfStale()))"],
    { cwd: ROOT, stdio: 'inherit' },
  );
  // Only the suites that start the compiled server or open the dashboard need the build; they
  // fail on their own, with a clearer message, when it is missing.
  if (build.status !== 0) console.warn('warning: the build failed; suites that need it will fail');
}

export default async function setup(project: TestProject) {
  buildIfStale();
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const template = `tt_template_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const database = await openDatabase({
      kind: 'postgres',
      url: withDatabaseName(adminUrl, template),
      poolSize: 1,
    });
    await migrate(database.db);
    await database.close();
    project.provide('postgresTemplate', template);
    project.provide('pgliteSnapshot', '');
    return async () => {
      const leftovers = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${template}%`],
      );
      for (const row of leftovers.rows)
        await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.end();
    };
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'touchtrail-test-'));
  const database = await openDatabase({ kind: 'pglite' });
  await migrate(database.db);
  const snapshotPath = path.join(folder, 'snapshot.tar');
  const snapshot = await database.snapshot?.();
  if (!snapshot) throw new Error('PGlite snapshot unavailable');
  await writeFile(snapshotPath, Buffer.from(await snapshot.arrayBuffer()));
  await database.close();
  project.provide('pgliteSnapshot', snapshotPath);
  project.provide('postgresTemplate', '');
  return () => rm(folder, { recursive: true, force: true });
}
