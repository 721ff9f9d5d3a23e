/**
 * Password reset with email: a real SMTP server (smtp-server) receives what nodemailer sends
 * after the 202. The emailed link works end to end; an unknown email gets nothing; a failed
 * send is logged as one line with neither the address nor the link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, startSmtpServer, type TestSmtpServer, tokenOf } from '../mail/mail.fixtures.js';
import { login, useTestApp } from '../test/app.js';
import {
  addMember,
  confirmReset,
  loginStatus,
  memberResetLink,
  requestReset,
} from './password-reset.fixtures.js';

const NEW_PASSWORD = 'emailed new passphrase 8';

describe('password reset by email', () => {
  let smtp: TestSmtpServer;
  const env: Record<string, string> = { PUBLIC_URL: 'https://analytics.example.com', LOG_LEVEL: 'trace' };
  beforeAll(async () => {
    smtp = await startSmtpServer();
    env.SMTP_URL = smtp.url;
  });
  afterAll(() => smtp.close());
  const t = useTestApp(env);
  const secrets: string[] = [NEW_PASSWORD];
  const settled = () => t.app.services.passwordReset.settled();

  it('emails a link that sets the password, refuses the old one and ends every session', async () => {
    const member = await addMember(t, t.owner.cookie, 'mailed-reset@example.com');
    secrets.push(member.who.email, member.who.password);
    const cookie = await login(t, member.who);
    const response = await requestReset(t, { email: 'Mailed-Reset@Example.com' });
    expect(response.statusCode).toBe(202);
    await settled();
    const [email] = await smtp.waitFor(1);
    if (!email) throw new Error('no email');
    expect(email.to).toEqual(['mailed-reset@example.com']);
    expect(email.from).toBe('no-reply@analytics.example.com');
    expect(email.subject).toBe('Reset your Touchtrail password');
    expect(email.text).toContain('within 1 hour');
    expect(email.text).toContain('If you did not ask for this, ignore this email');
    const link = linkIn(email);
    expect(link).toMatch(/^https:\/\/analytics\.example\.com\/reset-password#token=[A-Za-z0-9_-]{43}$/);
    expect(email.html).toContain(`href="${link}"`);
    secrets.push(link, tokenOf(link));

    expect((await confirmReset(t, { token: tokenOf(link), password: NEW_PASSWORD })).statusCode).toBe(204);
    expect(await loginStatus(t, member.who)).toBe(401);
    expect(await loginStatus(t, { email: member.who.email, password: NEW_PASSWORD })).toBe(200);
    const me = await t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });

  it('sends nothing for an email without an account, with the same answer', async () => {
    const before = smtp.messages.length;
    const response = await requestReset(t, { email: 'stranger@example.com' });
    expect(response.statusCode).toBe(202);
    expect(response.body).toBe('');
    await settled();
    expect(smtp.messages).toHaveLength(before);
    secrets.push('stranger@example.com');
  });

  it("emails an admin's reset link to the member and leaves it out of the answer", async () => {
    const member = await addMember(t, t.owner.cookie, 'admin-mailed@example.com');
    const before = smtp.messages.length;
    const response = await memberResetLink(t, { cookie: t.owner.cookie }, member.userId);
    expect(response.statusCode, response.body).toBe(201);
    expect(Object.keys(response.json())).toEqual(['expires_at']);
    const email = (await smtp.waitFor(before + 1))[before];
    if (!email) throw new Error('no email');
    expect(email.to).toEqual(['admin-mailed@example.com']);
    secrets.push(linkIn(email), tokenOf(linkIn(email)), member.who.email);
  });

  it('logs a refused send as one line without the address or link', async () => {
    smtp.refuse(true);
    const response = await requestReset(t, { email: 'admin-mailed@example.com' });
    await settled();
    smtp.refuse(false);
    expect(response.statusCode).toBe(202);
    const failures = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('password reset email not sent'));
    expect(failures).toHaveLength(1);
    expect(JSON.parse(failures[0] as string)).toMatchObject({
      level: 40,
      mail_error: 'EENVELOPE',
      mail_response_code: 550,
    });
  });

  it('answers a known email as fast as an unknown one, even when the relay is slow', async () => {
    // A relay that takes 300 ms per message: were the email sent before the answer, every known
    // email's answer would take that long more.
    const members = [];
    for (let i = 0; i < 5; i++) members.push(await addMember(t, t.owner.cookie, `timed-${i}@example.com`));
    smtp.slowDown(300);
    const timed = async (email: string) => {
      const started = performance.now();
      const response = await requestReset(t, { email });
      expect(response.statusCode).toBe(202);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (const [i, member] of members.entries()) {
      known.push(await timed(member.who.email));
      unknown.push(await timed(`untimed-${i}@example.com`));
    }
    await settled();
    smtp.slowDown(0);
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(100);
    expect(median(known)).toBeLessThan(300);
    secrets.push(...members.map((m) => m.who.email));
  });

  it('writes no email address, link, token or password to the log', async () => {
    const logs = t.logs().toLowerCase();
    for (const secret of secrets) expect(logs).not.toContain(secret.toLowerCase());
  });
});
