/** `POST /v1/auth/password`: change your own password; your other sessions end, this one stays. */
import { describe, expect, it } from 'vitest';
import { addPerson, postLogin, send, signIn } from '../second-factor/second-factor.fixtures.js';
import { useTestApp } from '../test/app.js';

const NEW_PASSWORD = 'a brand new passphrase';

describe('password change', () => {
  const t = useTestApp();
  const me = (cookie: string) => send(t, 'GET', '/v1/auth/me', cookie);
  const change = (cookie: string, payload: object) => send(t, 'POST', '/v1/auth/password', cookie, payload);

  it('sets the new password, refuses the old one, and ends the other sessions only', async () => {
    const person = await addPerson(t);
    const current = await signIn(t, person);
    const other = await signIn(t, person);
    const bystander = await signIn(t, await addPerson(t));
    const response = await change(current, { current_password: person.password, new_password: NEW_PASSWORD });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await me(current)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(bystander)).statusCode).toBe(200);
    expect((await postLogin(t, person)).statusCode).toBe(401);
    expect((await postLogin(t, { email: person.email, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 403 and changes nothing', async () => {
    const person = await addPerson(t);
    const current = await signIn(t, person);
    const other = await signIn(t, person);
    const response = await change(current, {
      current_password: 'not my password',
      new_password: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: 'invalid_credentials',
      message: expect.any(String),
      field: 'current_password',
    });
    expect((await me(current)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(200);
    expect((await postLogin(t, person)).statusCode).toBe(200);
  });

  it.each([
    [{ current_password: 'x' }, 'new_password'],
    [{ new_password: NEW_PASSWORD }, 'current_password'],
    [{ current_password: 'x', new_password: 'short' }, 'new_password'],
    [{ current_password: 'x', new_password: 'y'.repeat(1025) }, 'new_password'],
    [{ current_password: '', new_password: NEW_PASSWORD }, 'current_password'],
    [{ current_password: 1, new_password: NEW_PASSWORD }, 'current_password'],
    [{ current_password: 'x', new_password: NEW_PASSWORD, confirm: NEW_PASSWORD }, 'confirm'],
  ])(
    'answers a bad body with 422 naming the field (%j), with the same rules as setup',
    async (payload, field) => {
      const cookie = await signIn(t, await addPerson(t));
      const response = await change(cookie, payload);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    },
  );

  it('is for dashboard sessions only: 401 without one and with an API key', async () => {
    const payload = { current_password: 'x', new_password: NEW_PASSWORD };
    expect((await t.request({ method: 'POST', url: '/v1/auth/password', payload })).statusCode).toBe(401);
    const withKey = await t.request({
      method: 'POST',
      url: '/v1/auth/password',
      headers: { authorization: `Bearer ${t.owner.apiKey}` },
      payload,
    });
    expect(withKey.statusCode).toBe(401);
  });

  it('counts wrong current passwords: the sixth try in a minute is 429 with Retry-After', async () => {
    const person = await addPerson(t);
    const cookie = await signIn(t, person);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await change(cookie, { current_password: `guess ${i}`, new_password: NEW_PASSWORD })).statusCode,
      );
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403]);
    const limited = await change(cookie, { current_password: person.password, new_password: NEW_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
  });

  it('writes neither password to the log', async () => {
    const person = await addPerson(t);
    const cookie = await signIn(t, person);
    await change(cookie, { current_password: 'a wrong guess here', new_password: NEW_PASSWORD });
    await change(cookie, { current_password: person.password, new_password: 'another new passphrase' });
    const logs = t.logs();
    for (const secret of [person.password, 'a wrong guess here', 'another new passphrase']) {
      expect(logs).not.toContain(secret);
    }
  });
});
