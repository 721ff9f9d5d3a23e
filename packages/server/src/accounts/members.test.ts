import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  login,
  mintKey,
  type Owner,
  setUpOwner,
  type TestApp,
  useTestApp,
} from '../test/app.js';
import { insertAccount } from '../test/factories.js';

const MEMBER = { email: 'member@example.com', password: 'member password 1', role: 'member' };
const MEMBER_LOGIN = { email: MEMBER.email, password: MEMBER.password };

describe('account members', () => {
  let t: TestApp;
  let owner: Owner;
  beforeEach(async () => {
    t = await createTestApp();
    owner = await setUpOwner(t);
  });
  afterEach(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: object,
    payload?: object,
  ) =>
    t.request({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });
  const addMember = (payload: object = MEMBER) =>
    call('POST', '/v1/account/members', { cookie: owner.cookie }, payload);

  it('adds, lists, promotes and removes people', async () => {
    const added = await addMember();
    expect(added.statusCode).toBe(201);
    const { member } = added.json();
    expect(member).toMatchObject({ email: MEMBER.email, role: 'member' });
    expect(added.body).not.toContain(MEMBER.password);

    const list = await call('GET', '/v1/account/members', bearer(owner.apiKey));
    expect(
      list
        .json()
        .members.map((m: { email: string }) => m.email)
        .sort(),
    ).toEqual([MEMBER.email, 'owner@example.com']);

    const promoted = await call(
      'PATCH',
      `/v1/account/members/${member.user_id}`,
      { cookie: owner.cookie },
      { role: 'admin' },
    );
    expect(promoted.json().member.role).toBe('admin');

    const removed = await call('DELETE', `/v1/account/members/${member.user_id}`, { cookie: owner.cookie });
    expect(removed.statusCode).toBe(204);
    expect(
      (await t.request({ method: 'POST', url: '/v1/auth/login', payload: MEMBER_LOGIN })).statusCode,
    ).toBe(401);
  });

  it('refuses a duplicate email with 409', async () => {
    await addMember();
    const again = await addMember({ ...MEMBER, email: 'MEMBER@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'email_taken' });
  });

  it('always keeps one admin', async () => {
    const demote = await call(
      'PATCH',
      `/v1/account/members/${owner.userId}`,
      { cookie: owner.cookie },
      { role: 'member' },
    );
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ error: 'last_admin' });
    const remove = await call('DELETE', `/v1/account/members/${owner.userId}`, { cookie: owner.cookie });
    expect(remove.statusCode).toBe(409);
  });

  it('lets only one of two admins demote the other at the same moment', async () => {
    const second = (await addMember({ ...MEMBER, role: 'admin' })).json().member;
    const secondCookie = await login(t, MEMBER_LOGIN);
    const results = await Promise.all([
      call('PATCH', `/v1/account/members/${second.user_id}`, { cookie: owner.cookie }, { role: 'member' }),
      call('PATCH', `/v1/account/members/${owner.userId}`, { cookie: secondCookie }, { role: 'member' }),
    ]);
    const admins = await t.database.db
      .selectFrom('memberships')
      .select('user_id')
      .where('role', '=', 'admin')
      .execute();
    expect(admins).toHaveLength(1);
    expect(results.some((r) => r.statusCode === 200)).toBe(true);
  });

  it('refuses members and keys whose creator is no longer an admin with 403 forbidden', async () => {
    const member = (await addMember({ ...MEMBER, role: 'admin' })).json().member;
    const memberCookie = await login(t, MEMBER_LOGIN);
    const memberKey = await mintKey(t, memberCookie, { scopes: ['config:write'] });
    expect((await call('GET', '/v1/account/members', bearer(memberKey.api_key))).statusCode).toBe(200);

    await call(
      'PATCH',
      `/v1/account/members/${member.user_id}`,
      { cookie: owner.cookie },
      { role: 'member' },
    );
    const byKey = await call('GET', '/v1/account/members', bearer(memberKey.api_key));
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json()).toMatchObject({ error: 'forbidden' });
    const bySession = await call(
      'POST',
      '/v1/account/members',
      { cookie: memberCookie },
      { ...MEMBER, email: 'x@example.com' },
    );
    expect(bySession.statusCode).toBe(403);
  });

  it('answers 404 for a person of another account', async () => {
    const rival = await insertAccount(t);
    const response = await call(
      'PATCH',
      `/v1/account/members/${rival.userId}`,
      { cookie: owner.cookie },
      { role: 'member' },
    );
    expect(response.statusCode).toBe(404);
    const gone = await call('DELETE', `/v1/account/members/${rival.userId}`, { cookie: owner.cookie });
    expect(gone.statusCode).toBe(404);
  });
});

// Refused bodies change nothing, so these cases share one app instead of starting one each.
describe('account members: bodies refused', () => {
  const t = useTestApp();
  const addMember = (payload: object) =>
    t.request({ method: 'POST', url: '/v1/account/members', headers: { cookie: t.owner.cookie }, payload });

  it.each([
    [{ ...MEMBER, role: 'owner' }, 'role'],
    [{ ...MEMBER, password: 'short' }, 'password'],
    [{ email: MEMBER.email, role: 'member' }, 'password'],
    [{ ...MEMBER, email: 'not an email' }, 'email'],
    [{ ...MEMBER, email: `${'a'.repeat(250)}@example.com` }, 'email'],
    [{ ...MEMBER, team: 'x' }, 'team'],
  ])('answers bad bodies with 422 naming the field (%j)', async (payload, field) => {
    const response = await addMember(payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });
});
