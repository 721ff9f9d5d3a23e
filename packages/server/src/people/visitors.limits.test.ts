/**
 * The goals read budget (§8) on the visitor reports: 120 requests a minute per credential, shared
 * by the list and the profile, then 429 with Retry-After in the goals shape; each credential
 * has its own. Every client speaks from its own address, so the per-address budget stays out.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { visitorsClient } from './visitors.fixtures.js';

describe('visitor reports: the goals read budget', () => {
  // The budget is the same whichever engine reads; 120 reads each copying to ClickHouse first
  // would outlast the test's time.
  const t = useTestApp({}, { clickhouse: false });
  let siteId: string;
  beforeAll(async () => {
    siteId = (await insertSite(t, t.owner.accountId, { domain: 'limits.example.com' })).snippet_key;
  });

  const reader = async () =>
    visitorsClient(t, bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key));

  it('allows 120 reads a minute per credential, then answers 429 with Retry-After', async () => {
    const client = await reader();
    for (let i = 0; i < 120; i++) {
      const response = await client.goalVisitors('signup', { site_id: siteId });
      expect(response.statusCode, `request ${i + 1}`).toBe(200);
    }
    const limited = await client.profile('vh_AAAA');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ error: 'Too Many Requests', statusCode: 429 });
  });

  it('gives every credential its own budget', async () => {
    const spent = await reader();
    for (let i = 0; i < 120; i++) await spent.goalVisitors('signup', { site_id: siteId });
    expect((await spent.goalVisitors('signup', { site_id: siteId })).statusCode).toBe(429);
    const fresh = await reader();
    expect((await fresh.goalVisitors('signup', { site_id: siteId })).statusCode).toBe(200);
  });
});
