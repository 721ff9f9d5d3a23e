/** Builds every service from its dependencies, so HTTP, workers and tools share one wiring. */
import type { Kysely } from 'kysely';
import { createAccountsService } from './accounts/accounts.service.js';
import type { Config } from './config.js';
import type { DB } from './db/types.js';
import { createIngestService } from './ingest/ingest.service.js';
import { createKeysService } from './keys/keys.service.js';
import type { Clock } from './lib/clock.js';
import { createSessionsService } from './sessions/sessions.service.js';
import { createSitesService } from './sites/sites.service.js';

export function createServices({ db, clock, config }: { db: Kysely<DB>; clock: Clock; config: Config }) {
  // Keys resolve sites through the sites service, which mints keys and checks admins in turn:
  // the sites service reaches accounts and keys lazily, once all three exist.
  const sites = createSitesService({ db, clock, accounts: () => accounts, keys: () => keys });
  const keys = createKeysService({ db, clock, sites });
  const accounts = createAccountsService({ db, clock, config, keys });
  const sessions = createSessionsService({ db, clock, accounts });
  if (!config.secretKey) throw new Error('config.secretKey must be resolved before the services are built');
  const ingest = createIngestService({ db, clock, secretKey: config.secretKey });
  return { sites, keys, accounts, sessions, ingest };
}

export type Services = ReturnType<typeof createServices>;
