/**
 * Rule 5: a person with more visitor ids than are read per page is summarised from part of
 * their history, and the page says so with `identity_merge_complete: false`. Also: a browser
 * signed in as two people stays with the first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS } from '../lib/clock.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { VISITOR_IDS_PER_PERSON } from './people-summaries.js';
import { visitorsClient } from './visitors.fixtures.js';

describe('identity merging on the visitors list', () => {
  const t = useTestApp({ INGEST_RATE_LIMIT: '0' });
  beforeAll(() => t.clock.set(new Date('2026-05-10T10:00:00Z')));

  const newClient = async () =>
    visitorsClient(t, bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key));

  it('caps the visitor ids read per person and reports the merge as incomplete', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'busy.example.com' });
    const url = 'https://busy.example.com/';
    const browsers = Array.from({ length: VISITOR_IDS_PER_PERSON + 5 }, () => newVisitorId());
    await Promise.all(
      browsers.map((vid) => collect(t, { type: 'pageview', site: site.snippet_key, vid, url })),
    );
    t.clock.advance(MINUTE_MS);
    await Promise.all(
      browsers.map((vid) =>
        collect(t, { type: 'identify', site: site.snippet_key, vid, url, uid: 'shared-login' }),
      ),
    );
    const loner = newVisitorId();
    await collect(t, { type: 'pageview', site: site.snippet_key, vid: loner, url });
    t.clock.advance(MINUTE_MS);
    await collect(t, {
      type: 'event',
      site: site.snippet_key,
      vid: browsers[0] as string,
      url,
      name: 'signup',
    });
    t.clock.advance(MINUTE_MS);
    await collect(t, { type: 'event', site: site.snippet_key, vid: loner, url, name: 'signup' });

    const client = await newClient();
    const both = (await client.goalVisitors('signup', { site_id: site.snippet_key })).json();
    expect(both).toMatchObject({ total_count: 2, identity_merge_complete: false });
    expect(both.visitors.map((row: { session_count: number }) => row.session_count)).toEqual([
      1,
      VISITOR_IDS_PER_PERSON,
    ]);
    // The page without the shared login is complete.
    const first = (await client.goalVisitors('signup', { site_id: site.snippet_key, page_size: '1' })).json();
    expect(first).toMatchObject({ total_count: 2, has_more: true, identity_merge_complete: true });
    const second = (
      await client.goalVisitors('signup', { site_id: site.snippet_key, page_size: '1', page: '2' })
    ).json();
    expect(second).toMatchObject({ has_more: false, identity_merge_complete: false });
    const profile = (await client.profile(second.visitors[0].handle)).json();
    expect(profile).toMatchObject({ identity_merge_complete: false, session_count: VISITOR_IDS_PER_PERSON });
    expect(profile.visits).toHaveLength(VISITOR_IDS_PER_PERSON);
  });

  it('keeps a browser with the person it signed in as first', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'twice.example.com' });
    const url = 'https://twice.example.com/';
    const [shared, alices, bobs] = [newVisitorId(), newVisitorId(), newVisitorId()];
    const send = (vid: string, payload: object) =>
      collect(t, { site: site.snippet_key, vid, url, ...payload });
    for (const vid of [shared, alices, bobs]) await send(vid, { type: 'pageview' });
    await send(alices, { type: 'identify', uid: 'alice' });
    await send(bobs, { type: 'identify', uid: 'bob' });
    t.clock.advance(MINUTE_MS);
    await send(shared, { type: 'identify', uid: 'alice' });
    t.clock.advance(MINUTE_MS);
    await send(shared, { type: 'identify', uid: 'bob' });
    await send(bobs, { type: 'event', name: 'signup' });
    t.clock.advance(MINUTE_MS);
    await send(shared, { type: 'event', name: 'signup' });

    const body = (await (await newClient()).goalVisitors('signup', { site_id: site.snippet_key })).json();
    // Alice (through the shared browser) completed last; Bob keeps only his own browser.
    expect(body.total_count).toBe(2);
    expect(body.visitors.map((row: { session_count: number }) => row.session_count)).toEqual([2, 1]);
  });
});
