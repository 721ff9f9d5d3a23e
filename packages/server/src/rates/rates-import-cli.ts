/**
 * Entry point of `npm run rates:import -- FILE` (see rates-import-command.ts). With the embedded
 * PGlite database, stop the server first: its data folder takes one process at a time.
 */
import { ConfigError, loadConfig } from '../config.js';
import { configuredDatabase, openDatabase } from '../db/database.js';
import { systemClock } from '../lib/clock.js';
import { runRatesImport } from './rates-import-command.js';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`rates:import: configuration error: ${error.message}\n`);
  process.exit(1);
}
process.exitCode = await runRatesImport(process.argv.slice(2), {
  openDatabase: () => openDatabase(configuredDatabase(config)),
  clock: systemClock,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
