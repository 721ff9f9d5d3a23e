/**
 * The contract of `/v1/funnels` at its edges: bad input is a 422 in the sites area's coded shape
 * naming the field, another account's site or funnel is 404, and the scopes are checked.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { funnelQueryBodyExample } from './funnels.schemas.js';

const STEPS = [
  { type: 'page', match: 'is', value: '/pricing' },
  { type: 'event', name: 'signup' },
];
const page = (match: string, value: string) => ({ type: 'page', match, value });

describe('/v1/funnels, contract', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  let theirs: Awaited<ReturnType<typeof insertSite>>;
  let theirFunnel: string;

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
    theirs = await insertSite(t, (await insertAccount(t)).accountId);
    theirFunnel = randomUUID();
    const now = t.clock.now();
    await t.database.db
      .insertInto('funnels')
      .values({
        site_id: theirs.id,
        id: theirFunnel,
        name: 'Theirs',
        steps: JSON.stringify(STEPS),
        window_hours: 24,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });

  const send = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = bearer(t.owner.apiKey),
  ) => t.request({ method, url, headers, ...(payload ? { payload } : {}) });
  const create = (change: Record<string, unknown> = {}, headers?: Record<string, string>) =>
    send(
      'POST',
      '/v1/funnels',
      { site_id: site.snippet_key, name: 'Signup', steps: STEPS, ...change },
      headers,
    );
  const query = (change: Record<string, unknown> = {}) =>
    send('POST', '/v1/funnels/query', {
      site_id: site.snippet_key,
      steps: STEPS,
      date_range: '7d',
      ...change,
    });
  const expect422 = async (response: Awaited<ReturnType<typeof send>>, field: string) => {
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  };

  it('answers the unsaved funnel the OpenAPI document shows', async () => {
    const response = await send('POST', '/v1/funnels/query', {
      ...funnelQueryBodyExample,
      site_id: site.snippet_key,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.steps.map((s: { label: string }) => s.label)).toEqual([
      '/blog/*',
      '/pricing',
      'signup (plan = pro)',
    ]);
    expect(body.breakdown).toEqual([]);
    expect(body.meta.window_hours).toBe(72);
  });

  it.each([
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['no name', { name: undefined }, 'name'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
    ['one step', { steps: STEPS.slice(0, 1) }, 'steps'],
    ['nine steps', { steps: Array.from({ length: 9 }, () => STEPS[0]) }, 'steps'],
    ['steps that are not a list', { steps: '/pricing' }, 'steps'],
    ['an unknown step type', { steps: [STEPS[0], { type: 'click', selector: '#buy' }] }, 'steps.1.type'],
    ['an unknown step field', { steps: [{ ...STEPS[0], label: 'Pricing' }, STEPS[1]] }, 'steps.0.label'],
    ['an unknown match', { steps: [page('regex', '^/pricing$'), STEPS[1]] }, 'steps.0.match'],
    ['an empty page value', { steps: [page('contains', ''), STEPS[1]] }, 'steps.0.value'],
    ['a path without its slash', { steps: [page('is', 'pricing'), STEPS[1]] }, 'steps.0.value'],
    ['a pattern without its slash', { steps: [page('matches', 'blog/*'), STEPS[1]] }, 'steps.0.value'],
    [
      'a pattern with a query string',
      { steps: [page('matches', '/blog/*?ref=x'), STEPS[1]] },
      'steps.0.value',
    ],
    ['a value with a space', { steps: [page('contains', 'a b'), STEPS[1]] }, 'steps.0.value'],
    [
      'a pattern over 200 characters',
      { steps: [page('matches', `/${'*'.repeat(200)}`), STEPS[1]] },
      'steps.0.value',
    ],
    ['a bad event name', { steps: [STEPS[0], { type: 'event', name: 'Sign Up' }] }, 'steps.1.name'],
    ['pageview as an event name', { steps: [STEPS[0], { type: 'event', name: 'pageview' }] }, 'steps.1.name'],
    [
      'an unknown property field',
      {
        steps: [
          STEPS[0],
          { type: 'event', name: 'signup', property: { key: 'plan', value: 'pro', op: 'is' } },
        ],
      },
      'steps.1.property.op',
    ],
    [
      'a property value that is not text',
      { steps: [STEPS[0], { type: 'event', name: 'signup', property: { key: 'plan', value: 3 } }] },
      'steps.1.property.value',
    ],
    ['a window of 0 hours', { window_hours: 0 }, 'window_hours'],
    ['a window over 90 days', { window_hours: 2161 }, 'window_hours'],
    ['a fractional window', { window_hours: 1.5 }, 'window_hours'],
  ])('refuses to save %s', async (_name, change, field) => {
    await expect422(await create(change), field);
  });

  it.each([
    ['an unknown field', { compare: true }, 'compare'],
    ['no date range', { date_range: undefined }, 'date_range'],
    ['an unknown date keyword', { date_range: '90d' }, 'date_range'],
    ['dates in the wrong order', { date_range: ['2026-03-02', '2026-03-01'] }, 'date_range'],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['a breakdown not offered', { breakdown: 'visit:country' }, 'breakdown'],
    ['an unknown filter operator', { filters: [['like', 'visit:channel', ['ai']]] }, 'filters.0.0'],
    ['an unknown filter dimension', { filters: [['is', 'visit:planet', ['mars']]] }, 'filters.0.1'],
    ['a window over 90 days', { window_hours: 2161 }, 'window_hours'],
    ['nine steps', { steps: Array.from({ length: 9 }, () => STEPS[0]) }, 'steps'],
  ])('refuses to report on %s', async (_name, change, field) => {
    await expect422(await query(change), field);
  });

  it('checks the changes and report options of a saved funnel', async () => {
    const { funnel } = (await create()).json();
    const url = `/v1/funnels/${funnel.id}`;
    await expect422(await send('PATCH', url, { site_id: site.snippet_key, colour: 'red' }), 'colour');
    await expect422(await send('PATCH', url, { site_id: site.snippet_key, steps: STEPS.slice(1) }), 'steps');
    await expect422(await send('PATCH', url, { site_id: site.snippet_key, name: '' }), 'name');
    const report = (params: string) => send('GET', `${url}/report?site_id=${site.snippet_key}&${params}`);
    await expect422(await report('from=2026-03-01'), 'to');
    await expect422(await report('to=2026-03-01'), 'from');
    await expect422(await report('from=2026-03-02&to=2026-03-01'), 'from');
    await expect422(await report('from=2020-01-01&to=2025-01-01'), 'to');
    await expect422(await report('from=2026-02-30&to=2026-03-01'), 'from');
    await expect422(await report('filters=not-json'), 'filters');
    await expect422(await report('filters=%7B%7D'), 'filters');
    await expect422(await report(`filters=${encodeURIComponent('[["is","visit:x",["y"]]]')}`), 'filters.0.1');
    await expect422(await report('breakdown=visit:device'), 'breakdown');
    await expect422(await report('timezone=%2B01:00'), 'timezone');
    await expect422(await report('colour=red'), 'colour');
    const unchanged = await send('PATCH', url, { site_id: site.snippet_key });
    expect(unchanged.json()).toEqual({ funnel });
  });

  it('holds at most 100 funnels per site', async () => {
    const full = await insertSite(t, t.owner.accountId);
    const now = t.clock.now();
    const rows = Array.from({ length: 100 }, (_, i) => ({
      site_id: full.id,
      id: randomUUID(),
      name: `Funnel ${i}`,
      steps: JSON.stringify(STEPS),
      window_hours: 168,
      created_at: now,
      updated_at: now,
    }));
    await t.database.db.insertInto('funnels').values(rows).execute();
    await expect422(await create({ site_id: full.snippet_key }), 'site_id');
  });

  it('answers 404 for another account’s site or funnel, and for ids that name no funnel', async () => {
    const notFound = async (response: Awaited<ReturnType<typeof send>>) => {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    };
    await notFound(await create({ site_id: theirs.snippet_key }));
    await notFound(await query({ site_id: theirs.snippet_key }));
    await notFound(await send('GET', `/v1/funnels?site_id=${theirs.snippet_key}`));
    for (const ref of [theirs.snippet_key, site.snippet_key]) {
      await notFound(await send('GET', `/v1/funnels/${theirFunnel}?site_id=${ref}`));
      await notFound(await send('GET', `/v1/funnels/${theirFunnel}/report?site_id=${ref}`));
      await notFound(await send('PATCH', `/v1/funnels/${theirFunnel}`, { site_id: ref, name: 'Mine' }));
      await notFound(await send('DELETE', `/v1/funnels/${theirFunnel}?site_id=${ref}`));
    }
    await notFound(await send('GET', `/v1/funnels/not-a-uuid?site_id=${site.snippet_key}`));
    await notFound(await send('DELETE', `/v1/funnels/${randomUUID()}?site_id=${site.snippet_key}`));
    const kept = await t.database.db
      .selectFrom('funnels')
      .select('name')
      .where('id', '=', theirFunnel)
      .execute();
    expect(kept).toEqual([{ name: 'Theirs' }]);
  });

  it('reads but does not change funnels of a site scheduled for deletion', async () => {
    const leaving = await insertSite(t, t.owner.accountId, { deleted: true });
    expect((await create({ site_id: leaving.snippet_key })).statusCode).toBe(404);
    const listed = await send('GET', `/v1/funnels?site_id=${leaving.snippet_key}`);
    expect(listed.json()).toEqual({ funnels: [] });
    expect((await query({ site_id: leaving.snippet_key })).statusCode).toBe(200);
  });

  it('lets a dashboard session name the site by UUID, and answers the snippet key', async () => {
    const response = await create({ site_id: site.id }, { cookie: t.owner.cookie });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().funnel.site_id).toBe(site.snippet_key);
    expect((await create({ site_id: site.id })).statusCode).toBe(404);
  });

  it('needs config:write to change funnels and stats:read to read them', async () => {
    const reader = bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key);
    const writer = bearer((await mintKey(t, t.owner.cookie, { scopes: ['config:write'] })).api_key);
    const { funnel } = (await create()).json();
    const url = `/v1/funnels/${funnel.id}`;
    const refusals = [
      [await create({}, reader), 'config:write'],
      [await send('PATCH', url, { site_id: site.snippet_key, name: 'x' }, reader), 'config:write'],
      [await send('DELETE', `${url}?site_id=${site.snippet_key}`, undefined, reader), 'config:write'],
      [await send('GET', `/v1/funnels?site_id=${site.snippet_key}`, undefined, writer), 'stats:read'],
      [await send('GET', `${url}/report?site_id=${site.snippet_key}`, undefined, writer), 'stats:read'],
    ] as const;
    for (const [response, scope] of refusals) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({ error: 'insufficient_scope', required_scope: scope });
    }
    expect((await send('GET', `${url}?site_id=${site.snippet_key}`, undefined, reader)).statusCode).toBe(200);
    expect((await create({}, writer)).statusCode).toBe(201);
    const anonymous = await send('GET', `/v1/funnels?site_id=${site.snippet_key}`, undefined, {});
    expect(anonymous.statusCode).toBe(401);
  });
});
