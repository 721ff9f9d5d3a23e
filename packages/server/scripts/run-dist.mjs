/**
 * Runs a compiled entry point of this package (`node scripts/run-dist.mjs dist/db/migrate-cli.js …`),
 * building first when dist is missing or stale, so `npm run migrate` never runs old code.
 */
import { buildAndRunServerFile } from '../../../scripts/server-dist.mjs';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/run-dist.mjs <dist file> [args...]\n');
  process.exit(2);
}
await buildAndRunServerFile(file, args);
