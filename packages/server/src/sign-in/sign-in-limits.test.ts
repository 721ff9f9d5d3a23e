/**
 * Brute-force limits of DESIGN §8: sign-in and second-factor attempts, 10 a minute per client
 * address and 5 a minute per account, 429 with Retry-After; an unknown email is counted exactly
 * like a known one.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { nextAddress } from '../goals/goals.fixtures.js';
import {
  addPerson,
  codeFor,
  enrol,
  postLogin,
  secondFactor,
  signIn,
  startSignIn,
} from '../second-factor/second-factor.fixtures.js';
import { useTestApp } from '../test/app.js';

const expectLimited = (response: LightMyRequestResponse) => {
  expect(response.statusCode).toBe(429);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(response.json()).toEqual({ error: 'rate_limited', message: expect.any(String) });
};

describe('sign-in attempt limits', () => {
  const t = useTestApp();

  it('allows 10 attempts a minute from one address, across sign-in and the second factor', async () => {
    const address = nextAddress();
    for (let i = 0; i < 10; i++) {
      const response = await postLogin(t, { email: `nobody-${i}@example.com`, password: 'wrong' }, address);
      expect(response.statusCode).toBe(401);
    }
    expectLimited(await postLogin(t, { email: 'nobody-x@example.com', password: 'wrong' }, address));
    expectLimited(await secondFactor(t, '', { code: '123456' }, address));
    // Another address still has its budget.
    expect((await postLogin(t, { email: 'nobody-y@example.com', password: 'wrong' })).statusCode).toBe(401);
  });

  it('allows 5 attempts a minute per account from any addresses, then refuses even the right password', async () => {
    const person = await addPerson(t);
    for (let i = 0; i < 5; i++) {
      expect((await postLogin(t, { email: person.email, password: `guess ${i}` })).statusCode).toBe(401);
    }
    expectLimited(await postLogin(t, person));
    // The email's case does not give a fresh budget.
    expectLimited(await postLogin(t, { email: person.email.toUpperCase(), password: person.password }));
    // Another person is not affected.
    expect((await postLogin(t, await addPerson(t))).statusCode).toBe(200);
  });

  it('limits an unknown email exactly like a known one', async () => {
    const known = await addPerson(t);
    const unknown = { email: `no-such-${known.email}`, password: 'wrong' };
    const trace = async (who: { email: string; password: string }) => {
      const responses: LightMyRequestResponse[] = [];
      for (let i = 0; i < 6; i++) responses.push(await postLogin(t, { email: who.email, password: 'wrong' }));
      return responses.map((r) => ({
        status: r.statusCode,
        body: r.json(),
        hasRetryAfter: r.headers['retry-after'] !== undefined,
      }));
    };
    const knownTrace = await trace(known);
    expect(await trace(unknown)).toEqual(knownTrace);
    expect(knownTrace.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('does not count a malformed body against the account', async () => {
    const person = await addPerson(t);
    for (let i = 0; i < 6; i++) {
      const response = await t.request({
        method: 'POST',
        url: '/v1/auth/login',
        remoteAddress: nextAddress(),
        payload: { email: person.email },
      });
      expect(response.statusCode).toBe(422);
    }
    expect((await postLogin(t, person)).statusCode).toBe(200);
  });

  it('allows 5 second-factor attempts a minute per person, however many pending sign-ins', async () => {
    const person = await addPerson(t);
    const { secret } = await enrol(t, await signIn(t, person));
    const right = codeFor(t, secret);
    const wrong = right === '000000' ? '000001' : '000000';
    const first = await startSignIn(t, person);
    const second = await startSignIn(t, person);
    for (const pending of [first, first, first, second, second]) {
      expect((await secondFactor(t, pending, { code: wrong })).statusCode).toBe(401);
    }
    const third = await startSignIn(t, person);
    expectLimited(await secondFactor(t, third, { code: right }));
    expectLimited(await secondFactor(t, first, { recovery_code: 'aaaa-bbbb-cccc' }));
    // Someone else's second factor has its own budget.
    const other = await addPerson(t);
    const otherFactor = await enrol(t, await signIn(t, other));
    const otherPending = await startSignIn(t, other);
    expect((await secondFactor(t, otherPending, { code: codeFor(t, otherFactor.secret) })).statusCode).toBe(
      200,
    );
  });
});
