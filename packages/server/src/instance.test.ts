import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySiteLimit, prepareSetupToken, remindSetupToken } from './instance.js';
import { addSite, asKey } from './sites/sites.fixtures.js';
import { ADMIN, createTestApp, type Owner, setUpOwner, type TestApp } from './test/app.js';

describe('SITE_LIMIT at start', () => {
  let t: TestApp;
  let owner: Owner;
  beforeAll(async () => {
    t = await createTestApp({ SITE_LIMIT: '1' });
    owner = await setUpOwner(t);
  });
  afterAll(() => t.close());

  const create = (domain: string) =>
    t.request({ method: 'POST', url: '/v1/sites', headers: asKey(owner.apiKey), payload: { domain } });

  it('takes a changed value on the next start, for the self-hosted account only', async () => {
    await addSite(t, asKey(owner.apiKey), 'one.example.com');
    const refused = await create('two.example.com');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'site_limit_reached', site_limit: 1 });

    const hosted = '00000000-0000-4000-8000-000000000001';
    await t.database.db
      .insertInto('accounts')
      .values({ id: hosted, name: 'Hosted', plan: 'pro', site_limit: 5, created_at: new Date() })
      .execute();
    await applySiteLimit(t.database.db, { siteLimit: 3 });
    expect((await create('two.example.com')).statusCode).toBe(201);
    const limits = await t.database.db
      .selectFrom('accounts')
      .select(['plan', 'site_limit'])
      .orderBy('plan')
      .execute();
    expect(limits).toEqual([
      { plan: 'pro', site_limit: 5 },
      { plan: 'self_hosted', site_limit: 3 },
    ]);
  });
});

describe('the setup token reminder', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, {});
    // As when SETUP_TOKEN is not configured: the server makes a token and prints it.
    t.config.setupToken = undefined;
  });
  afterAll(() => t.close());

  it('prints the token again and again until setup has used it, then stops', async () => {
    const token = await prepareSetupToken(t.database.db, t.config);
    if (!token) throw new Error('no setup token was generated');
    let printed = 0;
    const reminder = remindSetupToken(t.database.db, () => printed++, 20);
    let stopped = false;
    void reminder.stopped.then(() => {
      stopped = true;
    });
    while (printed < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);

    const setup = await t.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { setup_token: token, ...ADMIN },
    });
    expect(setup.statusCode).toBe(201);
    // Resolves only when the reminder saw the account and cleared its timer.
    await reminder.stopped;
    const after = printed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(printed).toBe(after);
  });
});
