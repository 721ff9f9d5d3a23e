/**
 * Password reset without email (no SMTP_URL): the public request answers 202 and sends nothing;
 * an admin creates the link. Confirming sets the password, spends the link and ends sessions.
 */
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../lib/clock.js';
import { sha256Hex } from '../lib/secrets.js';
import { tokenOf } from '../mail/mail.fixtures.js';
import { ADMIN, bearer, login, mintKey, useTestApp } from '../test/app.js';
import { insertAccount } from '../test/factories.js';
import {
  addMember,
  confirmReset,
  loginStatus,
  memberResetLink,
  requestReset,
} from './password-reset.fixtures.js';

const NEW_PASSWORD = 'brand new passphrase 3';
const INVALID = { error: 'invalid_token', message: expect.any(String) };

describe('password reset without email', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://analytics.example.com' });
  const owner = () => ({ cookie: t.owner.cookie });
  const resets = () => t.database.db.selectFrom('password_resets').selectAll().execute();

  it('answers 202 with no body whether the email has an account or not', async () => {
    const before = (await resets()).length;
    const known = await requestReset(t, { email: ADMIN.email.toUpperCase() });
    const unknown = await requestReset(t, { email: 'nobody@example.com' });
    for (const response of [known, unknown]) {
      expect(response.statusCode).toBe(202);
      expect(response.body).toBe('');
    }
    const headers = (r: typeof known) =>
      Object.keys(r.headers).filter((h) => h !== 'x-request-id' && h !== 'date');
    expect(headers(known)).toEqual(headers(unknown));
    // The known email got a link (no email to send it in); the unknown one nothing.
    const rows = await resets();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ user_id: t.owner.userId, used_at: null });
  });

  it("gives an admin a member's link: 201 {link, expires_at in 1 hour}, stored as its hash", async () => {
    const member = await addMember(t, t.owner.cookie, 'forgetful@example.com');
    const response = await memberResetLink(t, owner(), member.userId);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'link']);
    expect(body.link).toMatch(/^https:\/\/analytics\.example\.com\/reset-password#token=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(body.expires_at)).toBe(t.clock.now().getTime() + HOUR_MS);
    const stored = (await resets()).find((r) => r.user_id === member.userId);
    expect(stored?.token_hash).toBe(sha256Hex(tokenOf(body.link)));
  });

  it('sets the new password, refuses the old one, ends every session and spends the link', async () => {
    const member = await addMember(t, t.owner.cookie, 'resetting@example.com');
    const sessions = [await login(t, member.who), await login(t, member.who)];
    const other = tokenOf((await memberResetLink(t, owner(), member.userId)).json().link);
    const token = tokenOf((await memberResetLink(t, owner(), member.userId)).json().link);
    const confirmed = await confirmReset(t, { token, password: NEW_PASSWORD });
    expect(confirmed.statusCode, confirmed.body).toBe(204);
    expect(confirmed.body).toBe('');
    expect(confirmed.cookies).toEqual([]);
    expect(await loginStatus(t, member.who)).toBe(401);
    expect(await loginStatus(t, { email: member.who.email, password: NEW_PASSWORD })).toBe(200);
    for (const cookie of sessions) {
      const me = await t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie } });
      expect(me.statusCode).toBe(401);
    }
    // Used once: this link and the person's other open link no longer work.
    for (const spent of [token, other]) {
      const again = await confirmReset(t, { token: spent, password: 'yet another passphrase' });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(INVALID);
    }
    expect(await loginStatus(t, { email: member.who.email, password: NEW_PASSWORD })).toBe(200);
  });

  it('refuses a link after its hour and an unknown token with the same 400, changing nothing', async () => {
    const member = await addMember(t, t.owner.cookie, 'slow@example.com');
    const token = tokenOf((await memberResetLink(t, owner(), member.userId)).json().link);
    t.clock.advance(HOUR_MS);
    const expired = await confirmReset(t, { token, password: NEW_PASSWORD });
    const unknown = await confirmReset(t, { token: 'z'.repeat(43), password: NEW_PASSWORD });
    for (const response of [expired, unknown]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(INVALID);
    }
    expect(expired.body).toBe(unknown.body);
    expect(await loginStatus(t, member.who)).toBe(200);
  });

  it('lets exactly one of two concurrent confirmations win', async () => {
    const member = await addMember(t, t.owner.cookie, 'race-reset@example.com');
    const token = tokenOf((await memberResetLink(t, owner(), member.userId)).json().link);
    const responses = await Promise.all([
      confirmReset(t, { token, password: NEW_PASSWORD }),
      confirmReset(t, { token, password: 'the other passphrase' }),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([204, 400]);
  });

  it("answers 404 for another account's person or an unknown id, 403 to members and narrow keys", async () => {
    const rival = await insertAccount(t);
    const theirs = await memberResetLink(t, owner(), rival.userId);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ error: 'not_found' });
    expect((await memberResetLink(t, owner(), '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const member = await addMember(t, t.owner.cookie, 'not-admin@example.com');
    const memberCookie = await login(t, member.who);
    const byMember = await memberResetLink(t, { cookie: memberCookie }, t.owner.userId);
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toMatchObject({ error: 'forbidden' });
    const narrow = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    expect((await memberResetLink(t, bearer(narrow.api_key), member.userId)).statusCode).toBe(403);
    const key = await mintKey(t, t.owner.cookie, { scopes: ['config:write'] });
    expect((await memberResetLink(t, bearer(key.api_key), member.userId)).statusCode).toBe(201);
    expect((await memberResetLink(t, {}, member.userId)).statusCode).toBe(401);
    expect((await memberResetLink(t, owner(), 'not-a-uuid')).statusCode).toBe(422);
  });

  it('refuses bad input with 422 naming the field', async () => {
    const requests: [unknown, string][] = [
      [{ email: 'not an email' }, 'email'],
      [{}, 'email'],
      [{ email: ['a@example.com'] }, 'email'],
      [{ email: 'a@example.com', password: 'x' }, 'password'],
      [{ email: `${'a'.repeat(100_000)}@example.com` }, 'email'],
    ];
    for (const [payload, field] of requests) {
      const response = await requestReset(t, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    }
    const confirms: [unknown, string][] = [
      [{ token: 'x'.repeat(43), password: 'short' }, 'password'],
      [{ token: 'x'.repeat(43), password: 'p'.repeat(1025) }, 'password'],
      [{ token: '', password: NEW_PASSWORD }, 'token'],
      [{ token: 'x'.repeat(201), password: NEW_PASSWORD }, 'token'],
      [{ password: NEW_PASSWORD }, 'token'],
      [{ token: 'x'.repeat(43), password: NEW_PASSWORD, email: ADMIN.email }, 'email'],
    ];
    for (const [payload, field] of confirms) {
      const response = await confirmReset(t, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    }
    const notJson = await t.request({
      method: 'POST',
      url: '/v1/auth/password-reset',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ error: 'invalid_json' });
  });

  it('allows 5 requests a minute per email from any address, known or not, then 429 alike', async () => {
    const known = await addMember(t, t.owner.cookie, 'limited@example.com');
    for (const email of [known.who.email, 'never-registered@example.com']) {
      const variants = [email, email.toUpperCase(), email, email.toUpperCase(), email];
      for (const variant of variants)
        expect((await requestReset(t, { email: variant })).statusCode).toBe(202);
      const limited = await requestReset(t, { email });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json()).toEqual({ error: 'rate_limited', message: expect.any(String) });
    }
  });

  it('allows 10 reset attempts a minute per address across both routes, then 429 with Retry-After', async () => {
    const address = '192.0.2.99';
    for (let i = 0; i < 5; i++) {
      expect((await requestReset(t, { email: `someone-${i}@example.com` }, address)).statusCode).toBe(202);
      expect(
        (await confirmReset(t, { token: 'q'.repeat(43), password: NEW_PASSWORD }, address)).statusCode,
      ).toBe(400);
    }
    const limited = await requestReset(t, { email: 'eleventh@example.com' }, address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
    expect(
      (await confirmReset(t, { token: 'q'.repeat(43), password: NEW_PASSWORD }, address)).statusCode,
    ).toBe(429);
  });
});
