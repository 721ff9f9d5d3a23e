/**
 * Start-up chores that belong to the installation rather than to a request: the server secret
 * (from SECRET_KEY, or generated once and kept in the database so every process shares it) and
 * the one-time setup token printed while no account exists (and again every minute until setup),
 * and SITE_LIMIT.
 */
import type { Kysely } from 'kysely';
import { SETUP_NONCE_SETTING, SETUP_TOKEN_SETTING } from './accounts/accounts.service.js';
import { anyAccountExists, applySelfHostedSiteLimit } from './accounts/accounts.store.js';
import type { Config } from './config.js';
import { settleSetting, writeSetting } from './db/settings.js';
import type { DB } from './db/types.js';
import { randomToken } from './lib/ids.js';
import { hmacHex, sha256Hex } from './lib/secrets.js';

export async function resolveSecretKey(db: Kysely<DB>, config: Config): Promise<string> {
  if (config.secretKey) return config.secretKey;
  return settleSetting(db, 'secret_key', randomToken(48));
}

/**
 * With no account yet, returns the setup token for printing (or null when SETUP_TOKEN is
 * configured or the server is already set up). The token is derived from the server secret and
 * a nonce kept in the database, so every process of the installation prints the same one, and it
 * stays the same across restarts until setup uses it. Only its hash is stored.
 */
export async function prepareSetupToken(
  db: Kysely<DB>,
  config: Pick<Config, 'setupToken' | 'secretKey'>,
): Promise<string | null> {
  if ((await anyAccountExists(db)) || config.setupToken) return null;
  if (!config.secretKey) throw new Error('the server secret must be resolved before the setup token');
  const nonce = await settleSetting(db, SETUP_NONCE_SETTING, randomToken(24));
  const token = hmacHex(config.secretKey, `setup-token|${nonce}`).slice(0, 40);
  // Every process writes the same hash; after a change of SECRET_KEY the latest start's wins.
  await writeSetting(db, SETUP_TOKEN_SETTING, sha256Hex(token));
  return token;
}

/**
 * SITE_LIMIT is the site cap of self-hosted accounts. Setup copies it into the account; applying
 * it again at every start makes a changed value take effect on restart, as operators expect.
 */
export async function applySiteLimit(db: Kysely<DB>, config: Pick<Config, 'siteLimit'>): Promise<void> {
  await applySelfHostedSiteLimit(db, config.siteLimit);
}

/** How often the setup token is printed again while no account exists. */
export const SETUP_REMINDER_MS = 60_000;

export interface SetupReminder {
  stop(): void;
  /** Resolves once the reminder has stopped, by `stop()` or because setup is done. */
  stopped: Promise<void>;
}

/**
 * Calls `print` every `intervalMs` until an account exists, so other output cannot scroll the
 * setup token away for good. The timer never keeps the process alive.
 */
export function remindSetupToken(
  db: Kysely<DB>,
  print: () => void,
  intervalMs = SETUP_REMINDER_MS,
): SetupReminder {
  let markStopped = () => {};
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });
  let checking = false;
  const stop = () => {
    clearInterval(timer);
    markStopped();
  };
  const timer = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      if (await anyAccountExists(db)) stop();
      else print();
    } catch {
      // The database is away for a moment (or closing at shutdown): try again next time.
    } finally {
      checking = false;
    }
  }, intervalMs);
  timer.unref();
  return { stop, stopped };
}
