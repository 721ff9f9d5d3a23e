/** `npm run migrate`: applies pending migrations to the configured database and exits. */
import { loadConfig } from '../config.js';
import { configuredDatabase, openDatabase } from './database.js';
import { migrate } from './migrate.js';

const config = loadConfig();
const database = await openDatabase(configuredDatabase(config));
try {
  const applied = await migrate(database.db);
  process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'nothing to apply\n');
} finally {
  await database.close();
}
