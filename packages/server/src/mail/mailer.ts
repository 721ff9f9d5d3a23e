/** Outgoing email through SMTP_URL (issue 21). Placeholder until built. */
import type { Config } from '../config.js';

export function createMailer(_config: Config) {
  return {};
}

export type Mailer = ReturnType<typeof createMailer>;
