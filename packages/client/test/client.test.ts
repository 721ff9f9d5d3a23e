/**
 * The typed client against the real server (PGlite, or PostgreSQL with DATABASE_URL): typed
 * answers, refusals as `TouchtrailApiError` in the area's shape, and an unreachable server as
 * `TouchtrailNetworkError`.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createTestApp, setUpOwner, type TestApp } from '../../server/src/test/app.js';
import { insertSite } from '../../server/src/test/factories.js';
import {
  createClient,
  type TouchtrailApiError,
  type TouchtrailClient,
  TouchtrailNetworkError,
  unwrap,
} from '../src/index.js';

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected the call to fail'),
    (reason: unknown) => reason,
  );
}

describe('the client against the server', () => {
  let t: TestApp;
  let client: TouchtrailClient;
  let baseUrl: string;
  let siteId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await setUpOwner(t);
    siteId = (await insertSite(t, owner.accountId, { domain: 'client.example.com' })).snippet_key;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/`;
    client = createClient({ baseUrl, apiKey: owner.apiKey });
  });
  afterAll(() => t?.close());

  it('creates and lists goals with typed bodies', async () => {
    const created = await unwrap(
      client.POST('/v1/goals', { body: { site_id: siteId, name: 'signup', display_name: 'Sign-ups' } }),
    );
    expect(created.goal).toMatchObject({ name: 'signup', display_name: 'Sign-ups' });
    const { goals } = await unwrap(client.GET('/v1/goals', { params: { query: { site_id: siteId } } }));
    expectTypeOf(goals[0]?.name).toEqualTypeOf<string | undefined>();
    expect(goals.map((goal) => goal.name)).toEqual(['signup']);
  });

  it('throws the refusal with its status, code and the area’s body', async () => {
    const body = { site_id: siteId, name: 'checkout' };
    await unwrap(client.POST('/v1/goals', { body }));
    const error = (await caught(unwrap(client.POST('/v1/goals', { body })))) as TouchtrailApiError;
    expect(error.name).toBe('TouchtrailApiError');
    expect(error).toMatchObject({ status: 409, code: 'goal_exists' });
    expect(error.body).toMatchObject({ error: 'conflict', code: 'goal_exists' });
    expect(error.message).toMatch(/checkout/);
  });

  it('sends no key when given none, and the server says 401', async () => {
    const anonymous = createClient({ baseUrl });
    const error = (await caught(
      unwrap(anonymous.GET('/v1/goals', { params: { query: { site_id: siteId } } })),
    )) as TouchtrailApiError;
    expect(error.status).toBe(401);
  });

  it('names the address it could not reach, without the key', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const key = 'tk_live_0123456789abcdef0123456789abcdef01234567';
    const closed = createClient({ baseUrl: `http://127.0.0.1:${port + 1}`, apiKey: key, maxRetries: 0 });
    const error = await caught(closed.GET('/v1/sites'));
    expect(error).toBeInstanceOf(TouchtrailNetworkError);
    expect((error as Error).message).toMatch(
      new RegExp(`^Could not reach http://127\\.0\\.0\\.1:${port + 1}/v1/sites: .*ECONNREFUSED`),
    );
    expect(JSON.stringify(error) + String(error)).not.toContain(key);
  });
});
