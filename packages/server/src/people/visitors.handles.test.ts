/**
 * `GET /v1/visitors/{handle}` trusts nothing a caller can make: an altered handle, one minted
 * under another secret, one of another account's site or of a site a restricted key does not
 * cover all answer 404 in the goals shape. Reads go on while a site is scheduled for deletion.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId } from '../ingest/ingest.fixtures.js';
import { bearer, login, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { createHandleCodec } from './visitor-handles.js';
import { visitorsClient } from './visitors.fixtures.js';

const NOT_FOUND = { error: 'Not found', statusCode: 404 };

describe('GET /v1/visitors/{handle}', () => {
  const t = useTestApp();
  let site: { id: string; snippet_key: string; domain: string };
  let handle: string;

  /** A site with one visitor who completed `signup`; returns that visitor's handle. */
  async function siteWithCompleter(accountId: string, domain: string, auth: Record<string, string>) {
    const created = await insertSite(t, accountId, { domain });
    const payload = { site: created.snippet_key, vid: newVisitorId(), url: `https://${domain}/` };
    await collect(t, { ...payload, type: 'pageview' });
    await collect(t, { ...payload, type: 'event', name: 'signup' });
    const list = await visitorsClient(t, auth).goalVisitors('signup', { site_id: created.snippet_key });
    return { site: created, handle: list.json().visitors[0].handle as string };
  }

  beforeAll(async () => {
    ({ site, handle } = await siteWithCompleter(t.owner.accountId, 'handles.example.com', {
      cookie: t.owner.cookie,
    }));
  });

  const reader = async (body: { scopes: string[]; site_id?: string } = { scopes: ['stats:read'] }) =>
    visitorsClient(t, bearer((await mintKey(t, t.owner.cookie, body)).api_key));

  it('opens a handle for a key and for a session, with or without the matching site_id', async () => {
    expect(handle).toMatch(/^vh_[A-Za-z0-9_-]{80}$/);
    const key = await reader();
    for (const response of [
      await key.profile(handle),
      await key.profile(handle, { site_id: site.snippet_key }),
      await visitorsClient(t, { cookie: t.owner.cookie }).profile(handle, { site_id: site.id }),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ handle, session_count: 1, revenue: { conversion_count: 1 } });
    }
  });

  it('answers 404 to every altered byte of a handle', async () => {
    const client = await reader();
    const sealed = Buffer.from(handle.slice(3), 'base64url');
    // IV, both UUIDs in the ciphertext, and the tag: a sample of positions across all three parts.
    for (const position of [0, 11, 12, 20, 28, 43, 44, 50, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[position] = (altered[position] as number) ^ 0x01;
      const response = await client.profile(`vh_${altered.toString('base64url')}`);
      expect(response.statusCode, `byte ${position}`).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it('answers 404 to anything else that is not a handle', async () => {
    const client = await reader();
    const otherSecret = createHandleCodec('another secret, at least 32 characters long');
    const forged = otherSecret.encode({ siteId: site.id, visitId: '00000000-0000-4000-8000-000000000000' });
    for (const candidate of [
      forged,
      handle.slice(0, -1),
      `${handle}A`,
      handle.replace('vh_', 'vx_'),
      'vh_',
      'vh_!!!!',
      'not-a-handle',
      site.snippet_key,
    ]) {
      const response = await client.profile(candidate);
      expect(response.statusCode, candidate).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it("answers 404 to another account's handle, both ways", async () => {
    const rival = await insertAccount(t);
    const rivalCookie = await login(t, { email: rival.email, password: rival.password });
    const theirs = await siteWithCompleter(rival.accountId, 'rival.example.com', { cookie: rivalCookie });
    const mine = await reader();
    expect((await mine.profile(theirs.handle)).json()).toEqual(NOT_FOUND);
    const theirClient = visitorsClient(t, { cookie: rivalCookie });
    expect((await theirClient.profile(handle)).statusCode).toBe(404);
    expect((await theirClient.profile(theirs.handle)).statusCode).toBe(200);
  });

  it('answers 404 when a key restricted to another site, or a mismatched site_id, is used', async () => {
    const other = await insertSite(t, t.owner.accountId, { domain: 'other.example.com' });
    const restricted = await reader({ scopes: ['stats:read'], site_id: other.snippet_key });
    expect((await restricted.profile(handle)).json()).toEqual(NOT_FOUND);
    const mismatched = await (await reader()).profile(handle, { site_id: other.snippet_key });
    expect(mismatched.json()).toEqual(NOT_FOUND);
    const ownSite = await reader({ scopes: ['stats:read'], site_id: site.snippet_key });
    expect((await ownSite.profile(handle)).statusCode).toBe(200);
  });

  it('keeps answering while the site is scheduled for deletion', async () => {
    const { site: doomed, handle: doomedHandle } = await siteWithCompleter(
      t.owner.accountId,
      'doomed.example.com',
      { cookie: t.owner.cookie },
    );
    await t.database.db
      .updateTable('sites')
      .set({ deleted_at: t.clock.now() })
      .where('id', '=', doomed.id)
      .execute();
    const client = await reader();
    const list = await client.goalVisitors('signup', { site_id: doomed.snippet_key });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total_count: 1, visitors: [{ handle: doomedHandle }] });
    expect((await client.profile(doomedHandle)).statusCode).toBe(200);
  });
});
