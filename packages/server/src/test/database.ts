/** A fresh, migrated database for one test file, copied from what global-setup prepared. */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../db/database.js';
import { withDatabaseName } from './global-setup.js';

export async function openTestDatabase(): Promise<Database> {
  const adminUrl = process.env.DATABASE_URL;
  const template = inject('postgresTemplate');
  if (adminUrl && template) {
    const name = `${template}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const database = await openDatabase({
      kind: 'postgres',
      url: withDatabaseName(adminUrl, name),
      poolSize: 5,
    });
    return {
      ...database,
      async close() {
        await database.close();
        const dropper = new pg.Client({ connectionString: adminUrl });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  }
  const snapshot = await readFile(inject('pgliteSnapshot'));
  return openDatabase({ kind: 'pglite', loadDataDir: new Blob([snapshot]) });
}
