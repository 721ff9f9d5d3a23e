/**
 * The ECB rate history packaged with the server (reference-data/ecb-rates.csv.gz, see its
 * README), so money converts from the first start on a machine without outbound access. Server
 * start fills the rates it lacks from it (main.ts); the scheduled refresh then adds newer days.
 * The folder is not called `data`: that is the default PGlite folder (DATA_DIR=./data) of a
 * server started from packages/server, and .gitignore leaves out every `data/`.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { SUPPORTED_CURRENCIES } from './currencies.js';
import { formatEcbCsv, parseEcbCsv } from './ecb-csv.js';
import type { ParsedRates } from './ecb-xml.js';
import { fillMissingRates } from './rates.store.js';

/** Two folders up from both src/rates and dist/rates: the package's own data folder. */
export const RATES_SNAPSHOT_FILE = fileURLToPath(
  new URL('../../reference-data/ecb-rates.csv.gz', import.meta.url),
);

/** The currencies the snapshot keeps: every supported one but the euro, in the list's order. */
const SNAPSHOT_CURRENCIES = SUPPORTED_CURRENCIES.filter((code) => code !== 'EUR');

export interface SnapshotLoad {
  /** Rows the table lacked and now holds. */
  inserted: number;
  days: number;
  firstDay: string;
  lastDay: string;
}

interface Log {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** The snapshot file for a newer ECB history CSV (`npm run rates:snapshot`), gzipped. */
export function buildRatesSnapshot(ecbHistoryCsv: string): { gzip: Buffer; parsed: ParsedRates } {
  const parsed = parseEcbCsv(ecbHistoryCsv, new Set(SNAPSHOT_CURRENCIES));
  const gzip = gzipSync(formatEcbCsv(parsed, SNAPSHOT_CURRENCIES), { level: 9 });
  return { gzip, parsed };
}

export async function readRatesSnapshot(file: string): Promise<ParsedRates> {
  return parseEcbCsv(gunzipSync(await readFile(file)).toString('utf8'), new Set(SNAPSHOT_CURRENCIES));
}

/**
 * Stores the snapshot's rates the table lacks, logging one line when it stored any; stored rates
 * are never replaced. A missing or broken file is one warning and null: the server starts anyway.
 */
export async function loadRatesSnapshot(deps: {
  db: Kysely<DB>;
  log: Log;
  file?: string;
}): Promise<SnapshotLoad | null> {
  const file = deps.file ?? RATES_SNAPSHOT_FILE;
  let parsed: ParsedRates;
  try {
    parsed = await readRatesSnapshot(file);
  } catch (error) {
    deps.log.warn(
      { job: 'rates-snapshot', error: error instanceof Error ? error.message : String(error) },
      'the packaged exchange-rate snapshot could not be read; conversion waits for the rates refresh ' +
        'or `npm run rates:import -- FILE`',
    );
    return null;
  }
  const inserted = await fillMissingRates(deps.db, parsed.rows);
  if (inserted === 0) return null;
  const load = {
    inserted,
    days: parsed.days.length,
    firstDay: parsed.days[0] as string,
    lastDay: parsed.days[parsed.days.length - 1] as string,
  };
  deps.log.info(
    { job: 'rates-snapshot', ...load },
    `exchange rates loaded from the packaged ECB snapshot: ${load.days} days up to ${load.lastDay}`,
  );
  return load;
}
