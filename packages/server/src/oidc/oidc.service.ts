/** OpenID Connect sign-in (issue 21). Placeholder until built. */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';

export function createOidcService(_deps: { db: Kysely<DB>; clock: Clock; config: Config }) {
  return {};
}

export type OidcService = ReturnType<typeof createOidcService>;
