/** Builds every service from its dependencies, so HTTP, workers and tools share one wiring. */
import type { Kysely } from 'kysely';
import { createAccountsService } from './accounts/accounts.service.js';
import type { Config } from './config.js';
import type { DB } from './db/types.js';
import { createKeysService } from './keys/keys.service.js';
import type { Clock } from './lib/clock.js';
import { createSessionsService } from './sessions/sessions.service.js';
import { createSitesService } from './sites/sites.service.js';

export function createServices({ db, clock, config }: { db: Kysely<DB>; clock: Clock; config: Config }) {
  const sites = createSitesService({ db });
  const keys = createKeysService({ db, clock, sites });
  const accounts = createAccountsService({ db, clock, config, keys });
  const sessions = createSessionsService({ db, clock, accounts });
  return { sites, keys, accounts, sessions };
}

export type Services = ReturnType<typeof createServices>;
