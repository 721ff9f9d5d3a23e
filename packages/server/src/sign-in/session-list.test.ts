/** A person's own sessions: listed with id, times and user agent; ended one by one or all but this one. */
import { describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { addPerson, send, signIn } from '../second-factor/second-factor.fixtures.js';
import { useTestApp } from '../test/app.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('sessions you can see and end', () => {
  const t = useTestApp();
  const list = async (cookie: string) => {
    const response = await send(t, 'GET', '/v1/auth/sessions', cookie);
    expect(response.statusCode).toBe(200);
    return response.json().sessions as Array<Record<string, unknown>>;
  };
  const me = (cookie: string) => send(t, 'GET', '/v1/auth/me', cookie);

  it('lists the signed-in person’s sessions, most recently used first, marking the current one', async () => {
    const person = await addPerson(t);
    const laptop = await signIn(t, person, FIREFOX);
    t.clock.advance(2 * MINUTE_MS);
    const phone = await signIn(t, person, SAFARI);
    t.clock.advance(2 * MINUTE_MS);
    const sessions = await list(phone);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      current: true,
      created_at: expect.any(String),
      last_used_at: expect.any(String),
      user_agent: SAFARI,
    });
    expect(sessions[1]).toMatchObject({ current: false, user_agent: FIREFOX });
    expect(Date.parse(sessions[1]?.created_at as string)).toBeLessThan(
      Date.parse(sessions[0]?.created_at as string),
    );
    // The laptop's own view marks the laptop; using it moves it to the top.
    t.clock.advance(2 * MINUTE_MS);
    const fromLaptop = await list(laptop);
    expect(fromLaptop[0]).toMatchObject({ current: true, user_agent: FIREFOX });
    expect(Date.parse(fromLaptop[0]?.last_used_at as string)).toBe(t.clock.now().getTime());
  });

  it('never lists another person’s sessions, nor the cookie or its hash', async () => {
    const ana = await addPerson(t);
    const bo = await addPerson(t);
    const anaCookie = await signIn(t, ana);
    await signIn(t, bo);
    const response = await send(t, 'GET', '/v1/auth/sessions', anaCookie);
    expect(response.json().sessions).toHaveLength(1);
    expect(response.body).not.toContain(anaCookie.split('=')[1]);
    expect(response.body).not.toContain('token');
  });

  it('cuts a long user agent to 200 characters and drops control characters', async () => {
    const person = await addPerson(t);
    const cookie = await signIn(t, person, `Firefox\t${'x'.repeat(300)}`);
    const sessions = await list(cookie);
    expect(sessions[0]?.user_agent).toBe(`Firefox${'x'.repeat(193)}`);
  });

  it('ends one session by id; that cookie stops working, the others do not', async () => {
    const person = await addPerson(t);
    const laptop = await signIn(t, person);
    const phone = await signIn(t, person);
    const phoneId = (await list(phone)).find((s) => s.current)?.id;
    const ended = await send(t, 'DELETE', `/v1/auth/sessions/${phoneId}`, laptop);
    expect(ended.statusCode).toBe(204);
    expect(ended.body).toBe('');
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(laptop)).statusCode).toBe(200);
    const again = await send(t, 'DELETE', `/v1/auth/sessions/${phoneId}`, laptop);
    expect(again.statusCode).toBe(404);
  });

  it('answers 404 for another person’s session and an unknown id, and ends nothing', async () => {
    const ana = await addPerson(t);
    const bo = await addPerson(t);
    const anaCookie = await signIn(t, ana);
    const boCookie = await signIn(t, bo);
    const boId = (await list(boCookie))[0]?.id;
    const theirs = await send(t, 'DELETE', `/v1/auth/sessions/${boId}`, anaCookie);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    expect((await me(boCookie)).statusCode).toBe(200);
    const unknown = await send(
      t,
      'DELETE',
      '/v1/auth/sessions/00000000-0000-4000-8000-000000000000',
      anaCookie,
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('answers a malformed id with 422 naming it', async () => {
    const cookie = await signIn(t, await addPerson(t));
    const response = await send(t, 'DELETE', '/v1/auth/sessions/not-a-uuid', cookie);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'id' });
  });

  it('ends every session but the current one', async () => {
    const person = await addPerson(t);
    const keep = await signIn(t, person);
    const others = [await signIn(t, person), await signIn(t, person)];
    const bystander = await signIn(t, await addPerson(t));
    const response = await send(t, 'DELETE', '/v1/auth/sessions', keep);
    expect(response.statusCode).toBe(204);
    for (const cookie of others) expect((await me(cookie)).statusCode).toBe(401);
    expect((await me(keep)).statusCode).toBe(200);
    expect((await me(bystander)).statusCode).toBe(200);
    expect(await list(keep)).toEqual([expect.objectContaining({ current: true })]);
  });

  it('ending the current session by id signs it out', async () => {
    const cookie = await signIn(t, await addPerson(t));
    const id = (await list(cookie))[0]?.id;
    expect((await send(t, 'DELETE', `/v1/auth/sessions/${id}`, cookie)).statusCode).toBe(204);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('is for dashboard sessions only: 401 with no session or with an API key', async () => {
    expect((await t.request({ method: 'GET', url: '/v1/auth/sessions' })).statusCode).toBe(401);
    const withKey = await t.request({
      method: 'DELETE',
      url: '/v1/auth/sessions',
      headers: { authorization: `Bearer ${t.owner.apiKey}` },
    });
    expect(withKey.statusCode).toBe(401);
    expect(withKey.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('lists a session started without a user agent with user_agent null', async () => {
    const person = await addPerson(t);
    const token = await t.app.services.sessions.start({
      userId: person.userId,
      accountId: t.owner.accountId,
    });
    const [row] = await list(`tt_session=${token}`);
    expect(row).toMatchObject({ current: true, user_agent: null });
  });

  // Last: it ages every session of the file, the owner's too.
  it('leaves idle and expired sessions out of the list', async () => {
    const person = await addPerson(t);
    await signIn(t, person);
    t.clock.advance(6 * DAY_MS);
    const fresh = await signIn(t, person);
    t.clock.advance(2 * DAY_MS);
    expect(await list(fresh)).toHaveLength(1);
  });
});
