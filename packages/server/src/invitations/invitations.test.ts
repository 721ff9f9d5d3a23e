/**
 * Invitations without email (no SMTP_URL): the admin gets the link in the answer. Contract of
 * every route, who may call them, and the one-time rules: expiry, revocation, reuse, replacement
 * and two accepts at once.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { sha256Hex } from '../lib/secrets.js';
import { ADMIN, bearer, login, mintKey, useTestApp } from '../test/app.js';
import { insertAccount } from '../test/factories.js';
import {
  acceptInvitation,
  invite,
  invited,
  listInvitations,
  NEW_PASSWORD,
  revokeInvitation,
  sessionCookieOf,
} from './invitations.fixtures.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const INVALID = { error: 'invalid_token', message: expect.any(String) };

describe('invitations without email', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://analytics.example.com' });
  const owner = () => ({ cookie: t.owner.cookie });

  it('answers 201 with id, email, role, expires_at in 7 days and the link, storing only its hash', async () => {
    const response = await invite(t, owner(), { email: 'New.Person@Example.com', role: 'admin' });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['email', 'expires_at', 'id', 'link', 'role']);
    expect(body).toMatchObject({ email: 'new.person@example.com', role: 'admin' });
    expect(Date.parse(body.expires_at)).toBe(t.clock.now().getTime() + 7 * DAY_MS);
    expect(body.link).toMatch(
      /^https:\/\/analytics\.example\.com\/accept-invitation#token=[A-Za-z0-9_-]{43}$/,
    );
    const token = body.link.split('#token=')[1];
    const row = await t.database.db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.invited_by).toBe(t.owner.userId);
  });

  it('lists pending invitations newest first, without tokens or links', async () => {
    const first = await invited(t, t.owner.cookie, 'listed-1@example.com');
    t.clock.advance(1000);
    const second = await invited(t, t.owner.cookie, 'listed-2@example.com', 'admin');
    const response = await listInvitations(t, owner());
    expect(response.statusCode).toBe(200);
    const { invitations } = response.json();
    const ids = invitations.map((i: { id: string }) => i.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(invitations.find((i: { id: string }) => i.id === second.id)).toEqual({
      id: second.id,
      email: 'listed-2@example.com',
      role: 'admin',
      created_at: expect.stringMatching(ISO),
      expires_at: expect.stringMatching(ISO),
    });
    expect(response.body).not.toContain(first.token);
    expect(response.body).not.toContain('token');
  });

  it('accepts with a password: 201 with the login body, a session cookie, and the new member can sign in', async () => {
    const invitation = await invited(t, t.owner.cookie, 'joiner@example.com', 'admin');
    const response = await acceptInvitation(t, { token: invitation.token, password: NEW_PASSWORD });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toEqual({ user_id: expect.any(String), account_id: t.owner.accountId, role: 'admin' });
    const cookie = response.cookies.find((c) => c.name === 'tt_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: true });
    const me = await t.request({
      method: 'GET',
      url: '/v1/auth/me',
      headers: { cookie: sessionCookieOf(response) },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      user: { id: body.user_id, email: 'joiner@example.com' },
      role: 'admin',
    });
    await login(t, { email: 'joiner@example.com', password: NEW_PASSWORD });
    // Accepted: no longer pending, and the link is spent.
    const listed = (await listInvitations(t, owner())).json().invitations.map((i: { id: string }) => i.id);
    expect(listed).not.toContain(invitation.id);
    const again = await acceptInvitation(t, { token: invitation.token, password: NEW_PASSWORD });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID);
  });

  it('refuses an unknown, revoked or expired token with the same 400, and creates nobody', async () => {
    const users = async () => (await t.database.db.selectFrom('users').select('id').execute()).length;
    const before = await users();
    const unknown = await acceptInvitation(t, { token: 'x'.repeat(43), password: NEW_PASSWORD });
    const revoked = await invited(t, t.owner.cookie, 'revoked@example.com');
    expect((await revokeInvitation(t, owner(), revoked.id)).statusCode).toBe(204);
    const afterRevoke = await acceptInvitation(t, { token: revoked.token, password: NEW_PASSWORD });
    const expiring = await invited(t, t.owner.cookie, 'expiring@example.com');
    // Halfway, the admin's session is used, so it outlives the week (7 idle days end it).
    t.clock.advance(4 * DAY_MS);
    expect((await listInvitations(t, owner())).statusCode).toBe(200);
    t.clock.advance(3 * DAY_MS - 1);
    const listed = (await listInvitations(t, owner())).json().invitations.map((i: { id: string }) => i.id);
    expect(listed).toContain(expiring.id);
    t.clock.advance(1);
    const afterExpiry = await acceptInvitation(t, { token: expiring.token, password: NEW_PASSWORD });
    for (const response of [unknown, afterRevoke, afterExpiry]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(INVALID);
    }
    expect(unknown.body).toBe(afterExpiry.body);
    expect(await users()).toBe(before);
    const pending = (await listInvitations(t, owner())).json().invitations.map((i: { id: string }) => i.id);
    expect(pending).not.toContain(expiring.id);
    expect(pending).not.toContain(revoked.id);
  });

  it('replaces a pending invitation when the email is invited again: the old link stops working', async () => {
    const old = await invited(t, t.owner.cookie, 'twice@example.com', 'admin');
    const replacement = await invited(t, t.owner.cookie, 'twice@example.com', 'member');
    expect(replacement.id).not.toBe(old.id);
    const pending = (await listInvitations(t, owner())).json().invitations;
    expect(pending.filter((i: { email: string }) => i.email === 'twice@example.com')).toEqual([
      expect.objectContaining({ id: replacement.id, role: 'member' }),
    ]);
    expect((await acceptInvitation(t, { token: old.token, password: NEW_PASSWORD })).statusCode).toBe(400);
    const accepted = await acceptInvitation(t, { token: replacement.token, password: NEW_PASSWORD });
    expect(accepted.json().role).toBe('member');
  });

  it('answers 409 email_taken when the email already has an account, in any case', async () => {
    const response = await invite(t, owner(), { email: ADMIN.email.toUpperCase(), role: 'member' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'email_taken' });
    const rival = await insertAccount(t);
    expect((await invite(t, owner(), { email: rival.email, role: 'member' })).statusCode).toBe(409);
  });

  it('answers 409 on accept when the email got an account after the invitation, keeping it pending', async () => {
    const invitation = await invited(t, t.owner.cookie, 'added-meanwhile@example.com');
    const added = await t.request({
      method: 'POST',
      url: '/v1/account/members',
      headers: owner(),
      payload: { email: 'added-meanwhile@example.com', password: NEW_PASSWORD, role: 'member' },
    });
    expect(added.statusCode).toBe(201);
    const response = await acceptInvitation(t, { token: invitation.token, password: NEW_PASSWORD });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'email_taken' });
    expect(response.cookies.find((c) => c.name === 'tt_session')).toBeUndefined();
  });

  it('lets exactly one of two concurrent accepts win', async () => {
    const invitation = await invited(t, t.owner.cookie, 'racer@example.com');
    const responses = await Promise.all([
      acceptInvitation(t, { token: invitation.token, password: NEW_PASSWORD }),
      acceptInvitation(t, { token: invitation.token, password: 'another passphrase 99' }),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const rows = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'racer@example.com')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('leaves one pending invitation when the same email is invited twice at once', async () => {
    const responses = await Promise.all([
      invite(t, owner(), { email: 'at-once@example.com', role: 'member' }),
      invite(t, owner(), { email: 'at-once@example.com', role: 'admin' }),
    ]);
    // In turn, the second replaces the first; truly at once, the second answers 409 conflict.
    for (const response of responses) expect([201, 409]).toContain(response.statusCode);
    const pending = (await listInvitations(t, owner())).json().invitations;
    expect(pending.filter((i: { email: string }) => i.email === 'at-once@example.com')).toHaveLength(1);
  });

  it('revokes with 204 (again too), and answers 404 for an unknown id or another account’s invitation', async () => {
    const invitation = await invited(t, t.owner.cookie, 'to-revoke@example.com');
    expect((await revokeInvitation(t, owner(), invitation.id)).statusCode).toBe(204);
    expect((await revokeInvitation(t, owner(), invitation.id)).statusCode).toBe(204);
    const unknown = await revokeInvitation(t, owner(), '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found' });
    const rival = await insertAccount(t);
    const rivalCookie = await login(t, { email: rival.email, password: rival.password });
    const theirs = await invited(t, rivalCookie, 'their-invitee@example.com');
    expect((await revokeInvitation(t, owner(), theirs.id)).statusCode).toBe(404);
    const mine = (await listInvitations(t, owner())).json().invitations.map((i: { id: string }) => i.id);
    expect(mine).not.toContain(theirs.id);
    // An accepted invitation is a member now: removing them is the members route's work.
    const accepted = await invited(t, t.owner.cookie, 'accepted-then-revoked@example.com');
    await acceptInvitation(t, { token: accepted.token, password: NEW_PASSWORD });
    expect((await revokeInvitation(t, owner(), accepted.id)).statusCode).toBe(404);
  });
});

describe('who may invite', () => {
  const t = useTestApp();

  it('lets a key with config:write act for its admin creator, and refuses members and narrower keys', async () => {
    const key = await mintKey(t, t.owner.cookie, { scopes: ['config:write'] });
    const byKey = await invite(t, bearer(key.api_key), { email: 'by-key@example.com', role: 'member' });
    expect(byKey.statusCode, byKey.body).toBe(201);
    expect((await listInvitations(t, bearer(key.api_key))).statusCode).toBe(200);

    const narrow = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    const refusedKey = await invite(t, bearer(narrow.api_key), {
      email: 'narrow@example.com',
      role: 'member',
    });
    expect(refusedKey.statusCode).toBe(403);
    expect(refusedKey.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'config:write' });

    const member = await invited(t, t.owner.cookie, 'plain-member@example.com', 'member');
    const joined = await acceptInvitation(t, { token: member.token, password: NEW_PASSWORD });
    const memberCookie = sessionCookieOf(joined);
    for (const response of [
      await invite(t, { cookie: memberCookie }, { email: 'by-member@example.com', role: 'admin' }),
      await listInvitations(t, { cookie: memberCookie }),
      await revokeInvitation(t, { cookie: memberCookie }, byKey.json().id),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: 'forbidden' });
    }
    const anonymous = await invite(t, {}, { email: 'anon@example.com', role: 'member' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses bad input with 422 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ email: 'not an email', role: 'member' }, 'email'],
      [{ email: 'a@example.com', role: 'owner' }, 'role'],
      [{ email: 'a@example.com' }, 'role'],
      [{ email: 'a@example.com', role: 'member', extra: 1 }, 'extra'],
      [{ email: `${'a'.repeat(250)}@example.com`, role: 'member' }, 'email'],
    ];
    for (const [payload, field] of cases) {
      const response = await invite(t, { cookie: t.owner.cookie }, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    }
    const accepts: [unknown, string][] = [
      [{ token: 'x'.repeat(43), password: 'short' }, 'password'],
      [{ token: '', password: NEW_PASSWORD }, 'token'],
      [{ token: 'x'.repeat(201), password: NEW_PASSWORD }, 'token'],
      [{ token: 42, password: NEW_PASSWORD }, 'token'],
      [{ password: NEW_PASSWORD }, 'token'],
      [{ token: 'x'.repeat(43), password: NEW_PASSWORD, role: 'admin' }, 'role'],
    ];
    for (const [payload, field] of accepts) {
      const response = await acceptInvitation(t, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    }
    const badId = await revokeInvitation(t, { cookie: t.owner.cookie }, 'not-a-uuid');
    expect(badId.statusCode).toBe(422);
  });

  it('allows 10 accept attempts a minute per address, then 429 with Retry-After', async () => {
    const attempt = () =>
      t.request({
        method: 'POST',
        url: '/v1/auth/invitations/accept',
        remoteAddress: '192.0.2.77',
        payload: { token: 'y'.repeat(43), password: NEW_PASSWORD },
      });
    for (let i = 0; i < 10; i++) expect((await attempt()).statusCode).toBe(400);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
