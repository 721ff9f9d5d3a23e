/** Two-factor sign-in with TOTP (issue 21). Placeholder until built. */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';

export function createSecondFactorService(_deps: { db: Kysely<DB>; clock: Clock; config: Config }) {
  return {};
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
