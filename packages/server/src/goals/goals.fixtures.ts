/**
 * Helpers shared by the goals suites: a client for the goals endpoints, a fresh site with its
 * own key per test, and server events posted through the real ingest path. Every client and
 * every ingest chunk speaks from its own client address, because the per-address budgets of
 * §8 (600 a minute across the goals endpoints) would otherwise be shared by a whole file.
 */
import type { LightMyRequestResponse } from 'fastify';
import { bearer, mintKey, type Owner, type TestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

export type Auth = { authorization: string } | { cookie: string };

let addressCounter = 0;
/** A client address no other helper in this process has used. */
export function nextAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

type Query = Record<string, string>;

export function goalsClient(t: TestApp, auth: Auth | Record<string, string>, address = nextAddress()) {
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, query?: Query, payload?: unknown) =>
    t.request({
      method,
      url,
      headers: auth,
      remoteAddress: address,
      ...(query ? { query } : {}),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    address,
    send,
    list: (query: Query) => send('GET', '/v1/goals', query),
    create: (body: unknown) => send('POST', '/v1/goals', undefined, body),
    update: (id: string, body: unknown) => send('PATCH', `/v1/goals/${id}`, undefined, body),
    reorder: (body: unknown) => send('PATCH', '/v1/goals/reorder', undefined, body),
    archive: (id: string, query: Query) => send('DELETE', `/v1/goals/${id}`, query),
    unarchive: (id: string, body: unknown) => send('POST', `/v1/goals/${id}/unarchive`, undefined, body),
    timeseries: (query: Query) => send('GET', '/v1/goals/timeseries', query),
    properties: (name: string, query: Query) => send('GET', `/v1/goals/${name}/properties`, query),
  };
}

export type GoalsClient = ReturnType<typeof goalsClient>;

export const ALL_SCOPES = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'];

/** A site of the owner's account and a fresh all-scope key, so per-key budgets start empty. */
export async function siteWithKey(t: TestApp, owner: Owner, options: { deleted?: boolean } = {}) {
  const site = await insertSite(t, owner.accountId, { deleted: options.deleted ?? false });
  const { api_key } = await mintKey(t, owner.cookie, { scopes: ALL_SCOPES });
  return { site, key: api_key, api: goalsClient(t, bearer(api_key)) };
}

export interface ServerEventBody {
  site_id: string;
  name: string;
  event_id?: string;
  visitor_id?: string;
  properties?: Record<string, string | number | boolean | null>;
  timestamp?: string;
}

/**
 * Posts server events through `POST /v1/server/events`, `concurrency` at a time so the group
 * committer batches them, changing client address every few hundred requests.
 */
export async function postServerEvents(
  t: TestApp,
  apiKey: string,
  events: ServerEventBody[],
  concurrency = 50,
): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = [];
  let address = nextAddress();
  for (let offset = 0; offset < events.length; offset += concurrency) {
    if (offset % 500 < concurrency) address = nextAddress();
    const chunk = events.slice(offset, offset + concurrency);
    const answered = await Promise.all(
      chunk.map((payload) =>
        t.request({
          method: 'POST',
          url: '/v1/server/events',
          headers: bearer(apiKey),
          remoteAddress: address,
          payload,
        }),
      ),
    );
    for (const response of answered) {
      if (response.statusCode !== 202) throw new Error(`server event refused: ${response.body}`);
    }
    responses.push(...answered);
  }
  return responses;
}

/** Compares text by Unicode code point (as PostgreSQL's "C" collation does for UTF-8). */
export function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A fresh site and key with `events` posted one at a time (so a retry follows its original). */
export async function siteWithEvents(t: TestApp, owner: Owner, events: Omit<ServerEventBody, 'site_id'>[]) {
  const fixture = await siteWithKey(t, owner);
  const site_id = fixture.site.snippet_key;
  await postServerEvents(
    t,
    fixture.key,
    events.map((event) => ({ site_id, ...event })),
    1,
  );
  return { ...fixture, site_id };
}
