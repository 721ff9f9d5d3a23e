import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { bearer, type TestApp, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { prepareServerProcess, SERVER_MAIN, type ServerProcess } from '../test/server-process.js';
import { roleFromArgs, runsBackgroundJobs, type ServerRole } from './roles.js';

describe('--role', () => {
  it('reads the role from the command line, all by default', () => {
    expect(roleFromArgs([])).toBe('all');
    expect(roleFromArgs(['--role', 'ingest'])).toBe('ingest');
    expect(roleFromArgs(['--role=worker'])).toBe('worker');
    expect(() => roleFromArgs(['--role', 'boss'])).toThrow('--role must be one of all, api, ingest, worker');
    expect(() => roleFromArgs(['--port', '80'])).toThrow(/the only option is --role/);
    expect((['all', 'api', 'ingest', 'worker'] as const).map(runsBackgroundJobs)).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  describe('the compiled server', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await prepareServerProcess('roles');
    }, 300_000);
    afterAll(() => server.cleanUp());

    it('stops at start on a bad role, or a split role without PostgreSQL', () => {
      const { DATABASE_URL, ...env } = process.env;
      const run = (args: string[]) => {
        const result = spawnSync(process.execPath, [SERVER_MAIN, ...args], { env, encoding: 'utf8' });
        return { status: result.status, stderr: result.stderr.trim() };
      };
      expect(run(['--role', 'boss'])).toEqual({
        status: 1,
        stderr: 'touchtrail: configuration error: --role must be one of all, api, ingest, worker',
      });
      expect(run(['--role', 'ingest'])).toEqual({
        status: 1,
        stderr: 'touchtrail: configuration error: --role needs DATABASE_URL (PostgreSQL)',
      });
    });
  });
});

describe.each<ServerRole>(['api', 'ingest', 'worker'])('a process in the %s role', (role) => {
  const t = useTestApp({}, { role, owner: false });
  let owner: { accountId: string; apiKey: string };
  beforeAll(async () => {
    owner = await ownerWithKey(t);
  });

  it('answers its own routes and the health checks, and 404 to the rest', async () => {
    const status = async (options: Parameters<TestApp['request']>[0]) =>
      (await t.request(options)).statusCode;
    expect(await status({ method: 'GET', url: '/healthz' })).toBe(200);
    expect(await status({ method: 'GET', url: '/readyz' })).toBe(200);
    const api = await status({ method: 'GET', url: '/v1/sites', headers: bearer(owner.apiKey) });
    const openapi = await t.request({ method: 'GET', url: '/v1/openapi.json' });
    const script = await status({ method: 'GET', url: '/t.js' });
    const site = await insertSite(t, owner.accountId, { domain: 'roles.example.com' });
    const beacon = (
      await collect(t, pageview(site.snippet_key, newVisitorId(), 'https://roles.example.com/'))
    ).statusCode;
    const payment = await status({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(owner.apiKey),
      payload: { site_id: site.snippet_key, transaction_id: `tx-${role}`, amount: 5, currency: 'EUR' },
    });
    // A delivery to no connection: the endpoint's own 404 where it is served, the ordinary one elsewhere.
    const delivery = await t.request({
      method: 'POST',
      url: `/v1/integrations/stripe/${randomUUID()}`,
      payload: '{}',
    });
    const processor = delivery.json().message;
    const served = { api: role === 'api', ingest: role === 'ingest' };
    expect({ api, openapi: openapi.statusCode, script, beacon, payment, processor }).toEqual({
      api: served.api ? 200 : 404,
      openapi: served.api ? 200 : 404,
      script: served.ingest ? 200 : 404,
      beacon: served.ingest ? 202 : 404,
      payment: served.ingest ? 202 : 404,
      processor: served.ingest ? 'Connection not found' : 'No such route',
    });
    // Every route stays registered: the document an api process serves is the whole one.
    if (served.api) expect(Object.keys(openapi.json().paths)).toContain('/v1/collect');
  });
});

/** Setup is an api route, so the owner is written straight to this role's database. */
async function ownerWithKey(t: TestApp): Promise<{ accountId: string; apiKey: string }> {
  const { accountId, userId } = await insertAccount(t);
  const { plaintext } = await t.app.services.keys.mint(t.database.db, {
    accountId,
    createdBy: userId,
    name: 'roles',
    scopes: ['stats:read', 'config:write', 'credentials:write', 'ingest:write'],
    siteId: null,
    expiresAt: null,
  });
  return { accountId, apiKey: plaintext };
}
