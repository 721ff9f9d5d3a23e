/** The emails the server sends: plain words, the link on a line of its own, a simple HTML twin. */
import type { OutgoingEmail } from './mailer.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Paragraphs as text and as HTML; `link` is placed between `before` and `after`. */
function compose(
  to: string,
  subject: string,
  before: string[],
  link: string,
  after: string[],
): OutgoingEmail {
  const text = [...before, link, ...after].join('\n\n');
  const html = [
    ...before.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    ...after.map((p) => `<p>${escapeHtml(p)}</p>`),
  ].join('\n');
  return { to, subject, text: `${text}\n`, html };
}

export function invitationEmail(input: {
  to: string;
  accountName: string;
  role: 'admin' | 'member';
  link: string;
}): OutgoingEmail {
  const as = input.role === 'admin' ? 'an admin' : 'a member';
  return compose(
    input.to,
    `You are invited to ${input.accountName} on Touchtrail`,
    [
      'Hello,',
      `You have been invited to join ${input.accountName} on Touchtrail as ${as}.`,
      'Open this link within 7 days to choose your password and sign in:',
    ],
    input.link,
    ['The link works once. If you did not expect this invitation, you can ignore this email.'],
  );
}

export function passwordResetEmail(input: { to: string; link: string }): OutgoingEmail {
  return compose(
    input.to,
    'Reset your Touchtrail password',
    [
      'Hello,',
      'Someone asked to reset the password of your Touchtrail sign-in.',
      'Open this link within 1 hour to choose a new password:',
    ],
    input.link,
    [
      'The link works once, and using it signs you out everywhere.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ],
  );
}
