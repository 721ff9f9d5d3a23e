import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, SETUP_TOKEN, type TestApp } from '../test/app.js';

describe('POST /v1/setup', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const setup = (payload: unknown) =>
    t.request({ method: 'POST', url: '/v1/setup', payload: payload as object });

  it('says whether the server is set up, to anyone, before and after', async () => {
    const before = await t.request({ method: 'GET', url: '/v1/setup' });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ set_up: false });
    expect((await setup({ setup_token: SETUP_TOKEN, ...ADMIN })).statusCode).toBe(201);
    expect((await t.request({ method: 'GET', url: '/v1/setup' })).json()).toEqual({ set_up: true });
  });

  it('creates the first account, its admin and an all-scope key, once', async () => {
    const response = await setup({ setup_token: SETUP_TOKEN, ...ADMIN, account_name: 'Acme' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      account_id: expect.any(String),
      user_id: expect.any(String),
      api_key: expect.any(String),
    });
    expect(body.api_key).toMatch(/^tk_live_[0-9A-Za-z]{32,}$/);

    const keys = await t.request({
      method: 'GET',
      url: '/v1/account/keys',
      headers: { authorization: `Bearer ${body.api_key}` },
    });
    expect(keys.statusCode).toBe(200);
    const [key] = keys.json().keys;
    expect(key.scopes.sort()).toEqual(['config:write', 'credentials:write', 'ingest:write', 'stats:read']);
    expect(key.site_id).toBeNull();

    const again = await setup({
      setup_token: SETUP_TOKEN,
      email: 'other@example.com',
      password: 'another long one',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'already_set_up' });
  });

  it('refuses a wrong token with 401 and creates nothing', async () => {
    const response = await setup({ setup_token: 'wrong-token-wrong-token', ...ADMIN });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'unauthorized' });
    expect(await t.app.services.accounts.isSetUp()).toBe(false);
  });

  it('lets exactly one of two concurrent setups win', async () => {
    const results = await Promise.all([
      setup({ setup_token: SETUP_TOKEN, ...ADMIN }),
      setup({ setup_token: SETUP_TOKEN, email: 'second@example.com', password: 'another long one' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const accounts = await t.database.db.selectFrom('accounts').select('id').execute();
    expect(accounts).toHaveLength(1);
  });

  it.each([
    ['a short password', { setup_token: SETUP_TOKEN, email: ADMIN.email, password: 'short' }, 'password'],
    ['a bad email', { setup_token: SETUP_TOKEN, email: 'not-an-email', password: ADMIN.password }, 'email'],
    ['a missing email', { setup_token: SETUP_TOKEN, password: ADMIN.password }, 'email'],
    ['a number for the token', { setup_token: 42, ...ADMIN }, 'setup_token'],
    ['an unknown field', { setup_token: SETUP_TOKEN, ...ADMIN, plan: 'enterprise' }, 'plan'],
    ['an empty account name', { setup_token: SETUP_TOKEN, ...ADMIN, account_name: '' }, 'account_name'],
  ])('answers 422 naming the field for %s', async (_case, payload, field) => {
    const response = await setup(payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    expect(await t.app.services.accounts.isSetUp()).toBe(false);
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const malformed = await t.request({
      method: 'POST',
      url: '/v1/setup',
      headers: { 'content-type': 'application/json' },
      payload: '{"setup_token": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'invalid_json' });

    const huge = await setup({
      setup_token: SETUP_TOKEN,
      ...ADMIN,
      account_name: 'x'.repeat(1024 * 1024 + 10),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('never echoes the password or the token into the logs', async () => {
    await setup({ setup_token: SETUP_TOKEN, ...ADMIN });
    await setup({ setup_token: SETUP_TOKEN, ...ADMIN, password: 'x' });
    const logs = t.logs();
    expect(logs).not.toContain(ADMIN.password);
    expect(logs).not.toContain(SETUP_TOKEN);
    expect(logs).not.toContain(ADMIN.email);
  });
});
