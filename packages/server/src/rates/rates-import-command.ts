/**
 * `npm run rates:import -- FILE`: stores every rate of an ECB reference-rate file (daily or
 * historical XML) in the configured database. It does not migrate: the server does that at
 * start, and `npm run migrate` without starting it. Kept apart from the CLI entry so tests run it.
 */
import { readFile } from 'node:fs/promises';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { createRatesService } from './rates.service.js';
import { hasRatesTable } from './rates.store.js';

export const RATES_IMPORT_USAGE = 'usage: npm run rates:import -- FILE (an ECB eurofxref XML file)';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Runs the command and resolves to the exit code; every failure is one line on `stderr`. */
export async function runRatesImport(
  args: readonly string[],
  deps: {
    openDatabase: () => Promise<Database>;
    clock: Clock;
    stdout: (line: string) => void;
    stderr: (line: string) => void;
  },
): Promise<number> {
  const fail = (message: string) => {
    deps.stderr(`rates:import: ${message}`);
    return 1;
  };
  const [file, ...rest] = args;
  if (!file || rest.length > 0 || file.startsWith('-')) return fail(RATES_IMPORT_USAGE);

  let xml: string;
  try {
    xml = await readFile(file, 'utf8');
  } catch (error) {
    return fail(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }

  let database: Database;
  try {
    database = await deps.openDatabase();
  } catch (error) {
    return fail(`cannot open the database: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    if (!(await hasRatesTable(database.db))) {
      return fail('the exchange_rates table is missing: run `npm run migrate` first');
    }
    const rates = createRatesService({ db: database.db, clock: deps.clock });
    const result = await rates.importXml(xml);
    deps.stdout(
      `imported ${count(result.rows, 'rate')} for ${count(result.days, 'day')} (${result.firstDay} to ${result.lastDay}) from ${file}`,
    );
    return 0;
  } catch (error) {
    return fail(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await database.close();
  }
}
