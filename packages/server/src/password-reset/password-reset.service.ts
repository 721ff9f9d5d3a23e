/** Password reset and change (issue 21). Placeholder until built. */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import type { Mailer } from '../mail/mailer.js';

export function createPasswordResetService(_deps: {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
  mailer: Mailer;
}) {
  return {};
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
