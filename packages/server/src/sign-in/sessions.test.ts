import { describe, expect, it } from 'vitest';
import { nextAddress } from '../goals/goals.fixtures.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { ADMIN, login, useTestApp } from '../test/app.js';

describe('dashboard sign-in', () => {
  const t = useTestApp();

  const me = (cookie: string) => t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie } });
  /**
   * A session of the owner's own for a test that ends, ages or compares it, started by the
   * service: the login route allows 5 sign-ins a minute per account, which this file spends.
   */
  const signIn = async () => {
    const token = await t.app.services.sessions.start({
      userId: t.owner.userId,
      accountId: t.owner.accountId,
    });
    return { cookie: `tt_session=${token}` };
  };

  it('signs in with a HttpOnly, SameSite=Lax session cookie and answers /me', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/auth/login', payload: ADMIN });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user_id: t.owner.userId,
      account_id: t.owner.accountId,
      role: 'admin',
    });
    const cookie = response.cookies.find((c) => c.name === 'tt_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();

    const profile = await me(`tt_session=${cookie?.value}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      user: { id: t.owner.userId, email: ADMIN.email, second_factor: false },
      role: 'admin',
      account: { id: t.owner.accountId, name: 'Acme', site_limit: 100, region: 'us' },
    });
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const wrong = await t.request({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { ...ADMIN, password: 'not the password' },
    });
    const unknown = await t.request({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'nobody@example.com', password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ error: 'invalid_credentials' });
    expect(wrong.cookies).toHaveLength(0);
  });

  it('takes the same scrypt work for unknown emails as for wrong passwords', async () => {
    const time = async (email: string) => {
      const started = performance.now();
      await t.request({
        method: 'POST',
        url: '/v1/auth/login',
        remoteAddress: nextAddress(),
        payload: { email, password: 'wrong password!' },
      });
      return performance.now() - started;
    };
    await time('warmup@example.com');
    const known = await time(ADMIN.email);
    // Unknown emails never count toward an account's failed sign-ins, so they can be sampled
    // more than once: the slowest of three rides out a busy moment of the machine.
    const unknown = Math.max(
      await time('nobody@example.com'),
      await time('nobody-else@example.com'),
      await time('no-one@example.com'),
    );
    // Both paths run one scrypt hash (tens of milliseconds); a missing hash would be near zero.
    expect(unknown).toBeGreaterThan(known * 0.4);
  });

  it('ends the session on logout', async () => {
    const owner = await signIn();
    const logout = await t.request({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { cookie: owner.cookie },
    });
    expect(logout.statusCode).toBe(204);
    expect((await me(owner.cookie)).statusCode).toBe(401);
  });

  it('expires a session after 7 idle days, and keeps an active one alive', async () => {
    const owner = await signIn();
    t.clock.advance(6 * DAY_MS);
    expect((await me(owner.cookie)).statusCode).toBe(200);
    t.clock.advance(6 * DAY_MS);
    expect((await me(owner.cookie)).statusCode).toBe(200);
    t.clock.advance(7 * DAY_MS + HOUR_MS);
    expect((await me(owner.cookie)).statusCode).toBe(401);
  });

  it('refuses garbage and forged cookies with 401', async () => {
    expect((await me('tt_session=abc')).statusCode).toBe(401);
    expect((await me(`tt_session=${'A'.repeat(43)}`)).statusCode).toBe(401);
    expect((await me('')).statusCode).toBe(401);
  });

  it('stores sessions hashed, never the cookie value', async () => {
    const owner = await signIn();
    const value = owner.cookie.split('=')[1] as string;
    const rows = await t.database.db.selectFrom('dashboard_sessions').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.token_hash).not.toBe(value);
  });

  it.each([
    [{ email: ADMIN.email }, 'password'],
    [{ email: 'x', password: 'y' }, 'email'],
    [{ ...ADMIN, remember: true }, 'remember'],
    [{ email: ['a'], password: 'y' }, 'email'],
  ])('answers bad login bodies with 422 naming the field (%j)', async (payload, field) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/auth/login',
      remoteAddress: nextAddress(),
      payload,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('a second login makes a second independent session', async () => {
    const owner = await signIn();
    const second = await login(t, ADMIN);
    expect(second).not.toBe(owner.cookie);
    await t.request({ method: 'POST', url: '/v1/auth/logout', headers: { cookie: second } });
    expect((await me(owner.cookie)).statusCode).toBe(200);
  });
});

describe('dashboard sign-in behind https', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://stats.example.com' });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/auth/login', payload: ADMIN });
    expect(response.cookies.find((c) => c.name === 'tt_session')?.secure).toBe(true);
  });
});

describe('dashboard sign-in behind a trusted TLS-terminating proxy, PUBLIC_URL unset', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const signInVia = (headers: Record<string, string>) =>
    t.request({ method: 'POST', url: '/v1/auth/login', payload: ADMIN, headers });
  const sessionCookie = (response: Awaited<ReturnType<typeof signInVia>>) =>
    response.cookies.find((c) => c.name === 'tt_session');

  it('marks the cookie Secure when the proxy reports https', async () => {
    const response = await signInVia({ 'x-forwarded-proto': 'https' });
    expect(response.statusCode).toBe(200);
    expect(sessionCookie(response)?.secure).toBe(true);
  });

  it('leaves Secure off when the proxy reports plain http', async () => {
    const response = await signInVia({ 'x-forwarded-proto': 'http' });
    expect(response.statusCode).toBe(200);
    expect(sessionCookie(response)?.secure).toBeFalsy();
  });
});

describe('dashboard sign-in without TRUST_PROXY', () => {
  const t = useTestApp();

  it('ignores a client’s X-Forwarded-Proto', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/auth/login',
      payload: ADMIN,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'tt_session')?.secure).toBeFalsy();
  });
});
