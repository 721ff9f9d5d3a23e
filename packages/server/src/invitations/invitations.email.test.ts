/**
 * Invitations with email: a real SMTP server (smtp-server) receives what nodemailer sends. The
 * link in the email signs the invited person in; a failed send leaves the invitation standing
 * and answers the link instead, logging one line with neither the address nor the link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, startSmtpServer, type TestSmtpServer, tokenOf } from '../mail/mail.fixtures.js';
import { useTestApp } from '../test/app.js';
import { acceptInvitation, invite, NEW_PASSWORD, sessionCookieOf } from './invitations.fixtures.js';

describe('invitations by email', () => {
  let smtp: TestSmtpServer;
  const env: Record<string, string> = {
    PUBLIC_URL: 'https://analytics.example.com',
    MAIL_FROM: 'Touchtrail <mail@analytics.example.com>',
    LOG_LEVEL: 'trace',
  };
  beforeAll(async () => {
    smtp = await startSmtpServer();
    env.SMTP_URL = smtp.url;
  });
  afterAll(() => smtp.close());
  const t = useTestApp(env);
  const secrets: string[] = [NEW_PASSWORD];

  it('emails the link instead of answering it, and the link signs the new member in', async () => {
    const response = await invite(
      t,
      { cookie: t.owner.cookie },
      { email: 'Invitee@Example.com', role: 'admin' },
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(Object.keys(response.json()).sort()).toEqual(['email', 'expires_at', 'id', 'role']);
    const [email] = await smtp.waitFor(1);
    if (!email) throw new Error('no email');
    expect(email.to).toEqual(['invitee@example.com']);
    expect(email.from).toBe('mail@analytics.example.com');
    expect(email.subject).toBe('You are invited to Acme on Touchtrail');
    expect(email.text).toContain('invited to join Acme on Touchtrail as an admin');
    expect(email.text).toContain('within 7 days');
    const link = linkIn(email);
    expect(link).toMatch(/^https:\/\/analytics\.example\.com\/accept-invitation#token=[A-Za-z0-9_-]{43}$/);
    expect(email.html).toContain(`href="${link}"`);
    secrets.push(link, tokenOf(link), 'invitee@example.com');

    const accepted = await acceptInvitation(t, { token: tokenOf(link), password: NEW_PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const me = await t.request({
      method: 'GET',
      url: '/v1/auth/me',
      headers: { cookie: sessionCookieOf(accepted) },
    });
    expect(me.json()).toMatchObject({ user: { email: 'invitee@example.com' }, role: 'admin' });
  });

  it('keeps the invitation and answers the link when the relay refuses the email', async () => {
    smtp.refuse(true);
    const response = await invite(
      t,
      { cookie: t.owner.cookie },
      { email: 'bounced@example.com', role: 'member' },
    );
    smtp.refuse(false);
    expect(response.statusCode, response.body).toBe(201);
    const { link } = response.json();
    expect(link).toMatch(/\/accept-invitation#token=/);
    secrets.push(link, tokenOf(link), 'bounced@example.com');
    const failures = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('invitation email not sent'));
    expect(failures).toHaveLength(1);
    expect(JSON.parse(failures[0] as string)).toMatchObject({
      level: 40,
      mail_error: 'EENVELOPE',
      mail_response_code: 550,
    });
    const accepted = await acceptInvitation(t, { token: tokenOf(link), password: NEW_PASSWORD });
    expect(accepted.statusCode).toBe(201);
  });

  it('writes no email address, link, token or password to the log', async () => {
    const logs = t.logs().toLowerCase();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(logs).not.toContain(secret.toLowerCase());
  });
});

describe('invitations when the mail relay cannot be reached', () => {
  const env: Record<string, string> = { LOG_LEVEL: 'info' };
  beforeAll(async () => {
    // A port that was just listening and now refuses connections.
    const gone = await startSmtpServer();
    await gone.close();
    env.SMTP_URL = gone.url;
  });
  const t = useTestApp(env);

  it('answers 201 with the link and logs the connection failure without the address', async () => {
    const response = await invite(
      t,
      { cookie: t.owner.cookie },
      { email: 'unreached@example.com', role: 'member' },
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().link).toMatch(/\/accept-invitation#token=/);
    const failure = t
      .logs()
      .split('\n')
      .find((line) => line.includes('invitation email not sent'));
    expect(JSON.parse(failure ?? '{}')).toMatchObject({ level: 40, mail_error: 'ESOCKET' });
    expect(t.logs()).not.toContain('unreached@example.com');
    expect(t.logs()).not.toContain(tokenOf(response.json().link));
  });
});
