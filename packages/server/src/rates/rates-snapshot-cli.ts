/**
 * `npm run rates:snapshot -- eurofxref-hist.csv`: rebuilds the packaged rate history
 * (reference-data/ecb-rates.csv.gz) from a newer ECB history file, the CSV inside
 * https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip. Update reference-data/README.md's dates after.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { buildRatesSnapshot, RATES_SNAPSHOT_FILE } from './rates-snapshot.js';

const USAGE = 'usage: npm run rates:snapshot -- FILE (the ECB’s eurofxref-hist.csv, unzipped)';

const args = process.argv.slice(2);
const [file] = args;
if (!file || args.length > 1 || file.startsWith('-')) {
  process.stderr.write(`rates:snapshot: ${USAGE}\n`);
  process.exit(1);
}
try {
  const { gzip, parsed } = buildRatesSnapshot(await readFile(file, 'utf8'));
  await writeFile(RATES_SNAPSHOT_FILE, gzip);
  const [first, last] = [parsed.days[0], parsed.days[parsed.days.length - 1]];
  process.stdout.write(
    `wrote ${parsed.rows.length} rates for ${parsed.days.length} days (${first} to ${last}) to ` +
      `${RATES_SNAPSHOT_FILE} (${gzip.length} bytes); now update the dates in reference-data/README.md\n`,
  );
} catch (error) {
  process.stderr.write(
    `rates:snapshot: ${file}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
