/**
 * GET /v1/sites/{siteId}/export refusing: bad formats, record kinds, days and windows, unknown
 * query parameters, csv with other than one kind (422 in the sites area's shape, naming the
 * parameter); sites out of reach (404, whatever the credential); a key without `stats:read`
 * (403); no credential (401); the eleventh export in a minute (429). No refusal starts a file.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { addOtherAccount } from '../sites/sites.fixtures.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { download } from './site-export.fixtures.js';

describe('GET /v1/sites/{siteId}/export: refusals', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  let reader: Record<string, string>;
  beforeEach(async () => {
    site = await insertSite(t, t.owner.accountId);
    reader = bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key);
  });

  async function expectRefused(
    query: Record<string, string>,
    status: number,
    body: Record<string, unknown>,
    auth = reader,
    siteRef = site.snippet_key,
  ) {
    const response = await download(t, auth, siteRef, query);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.json()).toEqual(body);
  }

  const invalid = (field: string, message: unknown = expect.any(String)) => ({
    error: 'validation_failed',
    field,
    message,
  });

  it('refuses an unknown format or record kind, and csv with other than one kind', async () => {
    await expectRefused({ format: 'xml' }, 422, invalid('format', expect.stringContaining('ndjson or csv')));
    await expectRefused(
      { records: 'visits,clicks' },
      422,
      invalid('records', expect.stringContaining('visits')),
    );
    await expectRefused({ records: '' }, 422, invalid('records'));
    await expectRefused({ records: 'visits,' }, 422, invalid('records'));
    await expectRefused(
      { format: 'csv', records: 'visits,events' },
      422,
      invalid('records', expect.stringContaining('pick one')),
    );
    await expectRefused({ format: 'csv' }, 422, invalid('records', expect.stringContaining('pick one')));
  });

  it('refuses bad days, from after to, and a window over 3660 days', async () => {
    await expectRefused({ from: '2026-02-30' }, 422, invalid('from'));
    await expectRefused({ to: '20260301' }, 422, invalid('to'));
    await expectRefused({ from: 'yesterday' }, 422, invalid('from'));
    await expectRefused(
      { from: '2026-03-02', to: '2026-03-01' },
      422,
      invalid('from', 'from (2026-03-02) must not be after to (2026-03-01)'),
    );
    await expectRefused(
      { from: '2016-01-01', to: '2026-01-08' },
      422,
      invalid('from', expect.stringContaining('3660')),
    );
  });

  it('refuses an unknown query parameter by name', async () => {
    await expectRefused({ limit: '10' }, 422, invalid('limit', 'Unknown field: limit'));
    await expectRefused({ site_id: site.snippet_key }, 422, invalid('site_id', 'Unknown field: site_id'));
  });

  it('answers 404 for another account’s site, by key or by session, and for a site being deleted', async () => {
    const rival = await addOtherAccount(t, `rival-${site.id.slice(0, 8)}@example.net`);
    const theirs = await insertSite(t, rival.accountId);
    const notFound = { error: 'not_found', message: 'Site not found' };
    await expectRefused({}, 404, notFound, reader, theirs.snippet_key);
    await expectRefused({}, 404, notFound, { cookie: t.owner.cookie }, theirs.id);
    await expectRefused({}, 404, notFound, bearer(rival.apiKey), site.snippet_key);
    const deleted = await insertSite(t, t.owner.accountId, { deleted: true });
    await expectRefused({}, 404, notFound, reader, deleted.snippet_key);
  });

  it('answers 404 to a key restricted to another site, or presenting a site UUID', async () => {
    const other = await insertSite(t, t.owner.accountId);
    const restricted = await mintKey(t, t.owner.cookie, {
      scopes: ['stats:read'],
      site_id: other.snippet_key,
    });
    const notFound = { error: 'not_found', message: 'Site not found' };
    await expectRefused({}, 404, notFound, bearer(restricted.api_key));
    await expectRefused({}, 404, notFound, reader, site.id);
    const mine = await download(t, bearer(restricted.api_key), other.snippet_key);
    expect(mine.statusCode).toBe(200);
  });

  it('answers 403 to a key without stats:read, and 401 without a credential', async () => {
    const writer = await mintKey(t, t.owner.cookie, { scopes: ['config:write', 'ingest:write'] });
    await expectRefused(
      {},
      403,
      {
        error: 'insufficient_scope',
        message: expect.any(String),
        required_scope: 'stats:read',
      },
      bearer(writer.api_key),
    );
    const anonymous = await download(t, {}, site.snippet_key);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('allows ten exports a minute per credential', async () => {
    for (let i = 0; i < 10; i++) expect((await download(t, reader, site.snippet_key)).statusCode).toBe(200);
    const response = await download(t, reader, site.snippet_key);
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'rate_limited' });
  });
});
