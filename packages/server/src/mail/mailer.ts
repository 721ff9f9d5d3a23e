/**
 * Outgoing email through SMTP_URL, with nodemailer. Without SMTP_URL the mailer is
 * disabled and the callers hand links to an admin instead. `smtp://` upgrades with STARTTLS when
 * the server offers it; nodemailer's options may ride in the URL's query (`?requireTLS=true`).
 */
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

/** Short timeouts: an invitation waits for its email, and a dead relay must not hold it for minutes. */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A message that did not go out. Its message names no recipient; `code` and `responseCode` are
 * nodemailer's and the relay's, safe to log (the relay's text can quote the address, so it is dropped).
 */
export class MailDeliveryError extends Error {
  constructor(
    readonly code: string | undefined,
    readonly responseCode: number | undefined,
  ) {
    super('The email could not be sent');
    this.name = 'MailDeliveryError';
  }
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>) {
  const transport = config.smtpUrl
    ? nodemailer.createTransport(
        {
          url: config.smtpUrl,
          connectionTimeout: CONNECTION_TIMEOUT_MS,
          greetingTimeout: GREETING_TIMEOUT_MS,
          socketTimeout: SOCKET_TIMEOUT_MS,
        },
        { from: config.mailFrom },
      )
    : undefined;
  return {
    /** True when SMTP_URL is set: links go out by email. */
    enabled: transport !== undefined,

    /** Sends one email; throws MailDeliveryError when it did not go out (or mail is off). */
    async send(email: OutgoingEmail): Promise<void> {
      if (!transport) throw new MailDeliveryError('EDISABLED', undefined);
      try {
        await transport.sendMail(email);
      } catch (error) {
        const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
        throw new MailDeliveryError(
          typeof code === 'string' ? code : undefined,
          typeof responseCode === 'number' ? responseCode : undefined,
        );
      }
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;

/** The one log line of a failed send: what failed, never to whom or with which link. */
export function mailFailureFields(error: unknown) {
  return error instanceof MailDeliveryError
    ? { mail_error: error.code ?? 'unknown', mail_response_code: error.responseCode }
    : { mail_error: 'unknown' };
}
