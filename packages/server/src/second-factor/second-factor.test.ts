/** Setting up, using and removing the TOTP second factor, and signing in with it. */
import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import {
  addPerson,
  codeFor,
  cookieValue,
  enrol,
  postLogin,
  secondFactor,
  send,
  signIn,
  startSignIn,
} from './second-factor.fixtures.js';

const me = (t: ReturnType<typeof useTestApp>, cookie: string) => send(t, 'GET', '/v1/auth/me', cookie);

describe('TOTP enrolment', () => {
  const t = useTestApp();

  it('answers a pending secret and otpauth URI, replaced by a new request until confirmed', async () => {
    const person = await addPerson(t);
    const cookie = await signIn(t, person);
    const first = await send(t, 'POST', '/v1/auth/totp', cookie);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(Object.keys(body).sort()).toEqual(['otpauth_uri', 'secret']);
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_uri).toContain(`secret=${body.secret}`);
    expect(body.otpauth_uri).toContain(encodeURIComponent(person.email));

    const second = (await send(t, 'POST', '/v1/auth/totp', cookie)).json();
    expect(second.secret).not.toBe(body.secret);
    // The first secret was replaced: its code no longer confirms.
    const stale = await send(t, 'POST', '/v1/auth/totp/confirm', cookie, { code: codeFor(t, body.secret) });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toEqual({ error: 'invalid_code', message: expect.any(String), field: 'code' });
    // Pending is not enrolled: the password alone still signs in.
    expect((await postLogin(t, person)).json()).toHaveProperty('user_id', person.userId);

    const confirmed = await send(t, 'POST', '/v1/auth/totp/confirm', cookie, {
      code: codeFor(t, second.secret),
    });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  });

  it('refuses to start or confirm again once enrolled (409)', async () => {
    const cookie = await signIn(t, await addPerson(t));
    const { secret } = await enrol(t, cookie);
    const again = await send(t, 'POST', '/v1/auth/totp', cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'second_factor_enrolled', message: expect.any(String) });
    const reconfirm = await send(t, 'POST', '/v1/auth/totp/confirm', cookie, { code: codeFor(t, secret) });
    expect(reconfirm.statusCode).toBe(409);
    expect(reconfirm.json()).toMatchObject({ error: 'second_factor_enrolled' });
  });

  it('answers 409 to a confirmation with nothing pending', async () => {
    const cookie = await signIn(t, await addPerson(t));
    const response = await send(t, 'POST', '/v1/auth/totp/confirm', cookie, { code: '123456' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'second_factor_not_enrolled' });
  });

  it('stores the secret sealed and the recovery codes hashed', async () => {
    const person = await addPerson(t);
    const { secret, recoveryCodes } = await enrol(t, await signIn(t, person));
    const factor = await t.database.db
      .selectFrom('totp_factors')
      .selectAll()
      .where('user_id', '=', person.userId)
      .executeTakeFirstOrThrow();
    expect(factor.secret_sealed).toMatch(/^v1:/);
    expect(factor.secret_sealed).not.toContain(secret);
    const rows = await t.database.db
      .selectFrom('totp_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', person.userId)
      .execute();
    expect(rows).toHaveLength(10);
    const stored = rows.map((row) => row.code_hash).join(' ');
    for (const code of recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace(/-/g, ''));
    }
  });

  it('is for dashboard sessions only: no session is 401, an API key is 401', async () => {
    const anonymous = await t.request({ method: 'POST', url: '/v1/auth/totp' });
    expect(anonymous.statusCode).toBe(401);
    const withKey = await t.request({
      method: 'POST',
      url: '/v1/auth/totp',
      headers: { authorization: `Bearer ${t.owner.apiKey}` },
    });
    expect(withKey.statusCode).toBe(401);
  });

  it.each([
    [{}, 'code'],
    [{ code: '12345' }, 'code'],
    [{ code: 123456 }, 'code'],
    [{ code: '1234567' }, 'code'],
    [{ code: '123456', extra: 1 }, 'extra'],
  ])('answers a bad confirmation body with 422 naming the field (%j)', async (payload, field) => {
    const cookie = await signIn(t, await addPerson(t));
    const response = await send(t, 'POST', '/v1/auth/totp/confirm', cookie, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });
});

describe('sign-in with a second factor', () => {
  const t = useTestApp();

  it('asks for the second factor with a pending cookie, then gives the session for a code', async () => {
    const person = await addPerson(t);
    const { secret } = await enrol(t, await signIn(t, person));

    const password = await postLogin(t, person);
    expect(password.statusCode).toBe(200);
    expect(password.json()).toEqual({ second_factor_required: true });
    expect(cookieValue(password, 'tt_session')).toBeUndefined();
    const pending = password.cookies.find((c) => c.name === 'tt_signin');
    expect(pending).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/v1/auth/login',
      maxAge: 300,
    });
    // Only the SHA-256 of the pending token is stored.
    const rows = await t.database.db.selectFrom('pending_sign_ins').select('token_hash').execute();
    expect(rows.map((row) => row.token_hash)).not.toContain(pending?.value);

    const done = await secondFactor(t, `tt_signin=${pending?.value}`, { code: codeFor(t, secret) });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ user_id: person.userId, account_id: t.owner.accountId, role: 'member' });
    const session = done.cookies.find((c) => c.name === 'tt_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(done.cookies.find((c) => c.name === 'tt_signin')?.value).toBe('');
    const profile = await me(t, `tt_session=${session?.value}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user.second_factor).toBe(true);

    // The pending sign-in is used up.
    const again = await secondFactor(t, `tt_signin=${pending?.value}`, { code: codeFor(t, secret, 30_000) });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ error: 'sign_in_expired' });
  });

  it('answers a wrong code with 401 in the account shape and no session', async () => {
    const person = await addPerson(t);
    const { secret } = await enrol(t, await signIn(t, person));
    const pending = await startSignIn(t, person);
    const right = codeFor(t, secret);
    const wrong = right === '000000' ? '000001' : '000000';
    const response = await secondFactor(t, pending, { code: wrong });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'invalid_code', message: expect.any(String), field: 'code' });
    expect(response.cookies.find((c) => c.name === 'tt_session')).toBeUndefined();
    // The pending sign-in survives a wrong code (the attempt budget bounds guessing).
    expect((await secondFactor(t, pending, { code: right })).statusCode).toBe(200);
  });

  it('accepts a code once only, and codes of the neighbouring steps', async () => {
    const person = await addPerson(t);
    const { secret } = await enrol(t, await signIn(t, person));
    t.clock.advance(30_000);
    const code = codeFor(t, secret, -30_000);
    expect((await secondFactor(t, await startSignIn(t, person), { code })).statusCode).toBe(200);
    const replay = await secondFactor(t, await startSignIn(t, person), { code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ error: 'invalid_code' });
    // An older step than the last accepted one is refused too; a later one works.
    expect(
      (await secondFactor(t, await startSignIn(t, person), { code: codeFor(t, secret, -60_000) })).statusCode,
    ).toBe(401);
    expect(
      (await secondFactor(t, await startSignIn(t, person), { code: codeFor(t, secret, 30_000) })).statusCode,
    ).toBe(200);
  });

  it('takes each recovery code once, whatever its case and dashes', async () => {
    const person = await addPerson(t);
    const { recoveryCodes } = await enrol(t, await signIn(t, person));
    const [first, second] = recoveryCodes as [string, string];
    const used = await secondFactor(t, await startSignIn(t, person), { recovery_code: first });
    expect(used.statusCode).toBe(200);
    expect(used.json()).toMatchObject({ user_id: person.userId });
    const reused = await secondFactor(t, await startSignIn(t, person), { recovery_code: first });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ error: 'invalid_code', field: 'recovery_code' });
    const typed = second.toUpperCase().replace(/-/g, ' ');
    expect((await secondFactor(t, await startSignIn(t, person), { recovery_code: typed })).statusCode).toBe(
      200,
    );
  });

  it('expires the pending sign-in after 5 minutes', async () => {
    const person = await addPerson(t);
    const { secret } = await enrol(t, await signIn(t, person));
    const pending = await startSignIn(t, person);
    t.clock.advance(5 * MINUTE_MS + 1000);
    const response = await secondFactor(t, pending, { code: codeFor(t, secret) });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'sign_in_expired', message: expect.any(String) });
  });

  it('binds a sealed secret to its person: moved to another row it opens for no one (401, not 500)', async () => {
    const ana = await addPerson(t);
    const bo = await addPerson(t);
    const anaFactor = await enrol(t, await signIn(t, ana));
    const boFactor = await enrol(t, await signIn(t, bo));
    const db = t.database.db;
    const sealed = await db
      .selectFrom('totp_factors')
      .select('secret_sealed')
      .where('user_id', '=', ana.userId)
      .executeTakeFirstOrThrow();
    await db.updateTable('totp_factors').set(sealed).where('user_id', '=', bo.userId).execute();
    const pending = await startSignIn(t, bo);
    expect((await secondFactor(t, pending, { code: codeFor(t, anaFactor.secret) })).statusCode).toBe(401);
    // As after a SECRET_KEY change: recovery codes still let the person in.
    const recovery = boFactor.recoveryCodes[0] as string;
    expect((await secondFactor(t, pending, { recovery_code: recovery })).statusCode).toBe(200);
  });

  it('answers 401 with no or a forged pending cookie', async () => {
    const none = await secondFactor(t, '', { code: '123456' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'sign_in_expired' });
    const forged = await secondFactor(t, `tt_signin=${'A'.repeat(43)}`, { code: '123456' });
    expect(forged.statusCode).toBe(401);
  });

  it('does not take a second factor of one person for another', async () => {
    const ana = await addPerson(t);
    const bo = await addPerson(t);
    const anaFactor = await enrol(t, await signIn(t, ana));
    await enrol(t, await signIn(t, bo));
    const boPending = await startSignIn(t, bo);
    expect((await secondFactor(t, boPending, { code: codeFor(t, anaFactor.secret) })).statusCode).toBe(401);
    const recovery = anaFactor.recoveryCodes[0] as string;
    expect((await secondFactor(t, boPending, { recovery_code: recovery })).statusCode).toBe(401);
  });

  it.each([
    [{}, 'code'],
    [{ code: '123456', recovery_code: 'abcd-efgh-jkmn' }, 'recovery_code'],
    [{ code: 'abcdef' }, 'code'],
    [{ recovery_code: '' }, 'recovery_code'],
    [{ recovery_code: 'x'.repeat(65) }, 'recovery_code'],
    [{ code: '123456', remember: true }, 'remember'],
  ])('answers a bad second-factor body with 422 naming the field (%j)', async (payload, field) => {
    const response = await secondFactor(t, '', payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('writes no code, recovery code or pending token to the log', async () => {
    const person = await addPerson(t);
    const { secret, recoveryCodes } = await enrol(t, await signIn(t, person));
    const pending = await startSignIn(t, person);
    const code = codeFor(t, secret);
    await secondFactor(t, pending, { code: code === '000000' ? '000001' : '000000' });
    await secondFactor(t, pending, { recovery_code: recoveryCodes[1] as string });
    const logs = t.logs();
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(pending.split('=')[1]);
    for (const recovery of recoveryCodes) expect(logs).not.toContain(recovery);
    expect(logs).not.toContain(person.password);
  });
});

describe('removing the second factor', () => {
  const t = useTestApp();

  it('removes it with a current code; the password alone signs in again', async () => {
    const person = await addPerson(t);
    const cookie = await signIn(t, person);
    const { secret } = await enrol(t, cookie);
    const removed = await send(t, 'DELETE', '/v1/auth/totp', cookie, { code: codeFor(t, secret) });
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    const login = await postLogin(t, person);
    expect(login.json()).toEqual({ user_id: person.userId, account_id: t.owner.accountId, role: 'member' });
    const rows = await t.database.db
      .selectFrom('totp_recovery_codes')
      .select('user_id')
      .where('user_id', '=', person.userId)
      .execute();
    expect(rows).toHaveLength(0);
    // And it can be set up afresh.
    expect((await send(t, 'POST', '/v1/auth/totp', cookie)).statusCode).toBe(200);
  });

  it('removes it with a recovery code', async () => {
    const person = await addPerson(t);
    const cookie = await signIn(t, person);
    const { recoveryCodes } = await enrol(t, cookie);
    const removed = await send(t, 'DELETE', '/v1/auth/totp', cookie, { code: recoveryCodes[3] });
    expect(removed.statusCode).toBe(204);
  });

  it('refuses a wrong or replayed code with 403 and keeps the factor', async () => {
    const person = await addPerson(t);
    const cookie = await signIn(t, person);
    const { secret } = await enrol(t, cookie);
    const code = codeFor(t, secret);
    expect((await secondFactor(t, await startSignIn(t, person), { code })).statusCode).toBe(200);
    const replayed = await send(t, 'DELETE', '/v1/auth/totp', cookie, { code });
    expect(replayed.statusCode).toBe(403);
    expect(replayed.json()).toEqual({ error: 'invalid_code', message: expect.any(String), field: 'code' });
    const wrong = await send(t, 'DELETE', '/v1/auth/totp', cookie, { code: 'aaaa-bbbb-cccc' });
    expect(wrong.statusCode).toBe(403);
    expect((await postLogin(t, person)).json()).toEqual({ second_factor_required: true });
  });

  it('answers 409 when there is none', async () => {
    const cookie = await signIn(t, await addPerson(t));
    const response = await send(t, 'DELETE', '/v1/auth/totp', cookie, { code: '123456' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'second_factor_not_enrolled' });
  });

  it.each([
    [{}, 'code'],
    [{ code: '' }, 'code'],
    [{ code: 'x'.repeat(65) }, 'code'],
    [{ code: ['123456'] }, 'code'],
  ])('answers a bad removal body with 422 naming the field (%j)', async (payload, field) => {
    const cookie = await signIn(t, await addPerson(t));
    const response = await send(t, 'DELETE', '/v1/auth/totp', cookie, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });
});
