import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySiteLimit } from './instance.js';
import { addSite, asKey } from './sites/sites.fixtures.js';
import { createTestApp, type Owner, setUpOwner, type TestApp } from './test/app.js';

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
