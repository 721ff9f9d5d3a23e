/**
 * A real SMTP server for tests (smtp-server on 127.0.0.1, a free port, no TLS, no sign-in) that
 * keeps every message it receives. `SMTP_URL` for the app is its `url`. `refuse` makes it answer
 * every recipient with a 550 that quotes the address, as real relays do; `slowDown` delays it.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedEmail {
  from: string;
  to: string[];
  subject: string;
  /** The text/plain part, decoded. */
  text: string;
  /** The text/html part, decoded. */
  html: string;
}

export interface TestSmtpServer {
  url: string;
  messages: ReceivedEmail[];
  /** Makes the server refuse (true) or accept (false) every recipient from now on. */
  refuse(isRefusing: boolean): void;
  /** Makes the server wait this long before accepting each message, as a slow relay does. */
  slowDown(delayMs: number): void;
  /** Waits until `count` messages have arrived (they come in the background), at most 10 s. */
  waitFor(count: number): Promise<ReceivedEmail[]>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedEmail[] = [];
  let isRefusing = false;
  let delayMs = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!isRefusing) return callback();
      const refusal = Object.assign(new Error(`<${address.address}>: Recipient address rejected`), {
        responseCode: 550,
      });
      callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = parse(Buffer.concat(chunks).toString('utf8'), session.envelope);
        setTimeout(() => {
          messages.push(message);
          callback();
        }, delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuse: (value) => {
      isRefusing = value;
    },
    slowDown: (value) => {
      delayMs = value;
    },
    async waitFor(count) {
      const deadline = Date.now() + 10_000;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} emails, got ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parse(
  raw: string,
  envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] },
): ReceivedEmail {
  const headers = unfold(raw.split(/\r?\n\r?\n/)[0] ?? '');
  return {
    from: envelope.mailFrom ? envelope.mailFrom.address : '',
    to: envelope.rcptTo.map((r) => r.address),
    subject: /^subject: (.*)$/im.exec(headers)?.[1] ?? '',
    text: partOf(raw, 'text/plain'),
    html: partOf(raw, 'text/html'),
  };
}

const unfold = (headers: string) => headers.replace(/\r?\n[ \t]+/g, ' ');

/** The body of the MIME part of this type (nodemailer writes 7bit or quoted-printable ones). */
function partOf(raw: string, type: string): string {
  const start = raw.search(new RegExp(`^Content-Type: ${type}`, 'im'));
  if (start < 0) return '';
  const part = raw.slice(start);
  const bodyStart = part.search(/\r?\n\r?\n/);
  const headers = unfold(part.slice(0, bodyStart));
  const body =
    part
      .slice(bodyStart)
      .replace(/^\r?\n\r?\n/, '')
      .split(/\r?\n--/)[0] ?? '';
  return /content-transfer-encoding: quoted-printable/i.test(headers) ? decodeQuotedPrintable(body) : body;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The one-time link in an email's text: the line that starts with the server's address. */
export function linkIn(email: ReceivedEmail): string {
  const link = /^https?:\/\/\S+#token=[A-Za-z0-9_-]+$/m.exec(email.text)?.[0];
  if (!link) throw new Error(`no link in the email: ${email.text}`);
  return link;
}

export const tokenOf = (link: string) => new URL(link).hash.replace(/^#token=/, '');
