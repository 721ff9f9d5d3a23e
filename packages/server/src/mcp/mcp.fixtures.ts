/**
 * The agent tool set's test server, shared by the HTTP suite here and the stdio suite of
 * packages/mcp: the real app listening on 127.0.0.1 with the seeded site, a reading key, a
 * writing key, an HTTPS webhook receiver, and for each read tool the API request it stands for.
 */
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { bearer, createTestApp, mintKey, setUpOwner, type TestApp } from '../test/app.js';
import { createTestPki, startReceiver, type TestReceiver } from '../webhooks/webhooks.fixtures.js';
import { type SeededSite, seedAgentSite } from './mcp.seed.js';

export interface AgentServer {
  t: TestApp;
  /** `http://127.0.0.1:<port>`, the server's base URL. */
  baseUrl: string;
  site: SeededSite;
  /** `stats:read` only. */
  readerKey: string;
  /** `stats:read` and `config:write`. */
  writerKey: string;
  webhookId: string;
  receiver: TestReceiver;
  /** A new key of the owner's. */
  mintKey(scopes: string[]): Promise<{ id: string; api_key: string }>;
  revoke(keyId: string): Promise<void>;
  /** A `stats:read` key, minted and revoked at once. */
  revokedKey(): Promise<string>;
  /** What the API answers `key` for this request. */
  api(key: string, request: InjectOptions): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startAgentServer(): Promise<AgentServer> {
  const pki = createTestPki();
  const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', NODE_EXTRA_CA_CERTS: pki.caFile });
  const owner = await setUpOwner(t);
  const [site, reader, writer, receiver] = await Promise.all([
    seedAgentSite(t, owner),
    mintKey(t, owner.cookie, { scopes: ['stats:read'], name: 'agent reader' }),
    mintKey(t, owner.cookie, { scopes: ['stats:read', 'config:write'], name: 'agent writer' }),
    startReceiver(pki.leaf),
  ]);
  const webhook = await t.request({
    method: 'POST',
    url: `/v1/sites/${site.snippetKey}/webhooks`,
    headers: bearer(owner.apiKey),
    payload: { url: receiver.url },
  });
  if (webhook.statusCode !== 201) throw new Error(`webhook: ${webhook.body}`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const mintOwnerKey = (scopes: string[]) => mintKey(t, owner.cookie, { scopes, name: 'agent' });
  const revoke = async (keyId: string) => {
    const revoked = await t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${keyId}`,
      headers: { cookie: owner.cookie },
    });
    if (revoked.statusCode !== 204) throw new Error(`revoke: ${revoked.body}`);
  };
  return {
    t,
    baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`,
    site,
    readerKey: reader.api_key,
    writerKey: writer.api_key,
    webhookId: webhook.json().id,
    receiver,
    mintKey: mintOwnerKey,
    revoke,
    async revokedKey() {
      const key = await mintOwnerKey(['stats:read']);
      await revoke(key.id);
      return key.api_key;
    },
    async api(key, request) {
      const response = await t.request({ ...request, headers: { ...request.headers, ...bearer(key) } });
      return { status: response.statusCode, body: response.statusCode === 204 ? {} : response.json() };
    },
    async close() {
      await receiver.close();
      await t.close();
      pki.remove();
    },
  };
}

export const READ_TOOLS = [
  'ai_visibility',
  'crawler_report',
  'funnel_report',
  'get_realtime',
  'get_session',
  'get_site',
  'goal_properties',
  'goal_timeseries',
  'goal_visitors',
  'list_events',
  'list_goals',
  'list_sessions',
  'list_sites',
  'query_stats',
  'revenue_by_source',
];
export const WRITE_TOOLS = ['archive_goal', 'create_goal', 'test_webhook', 'update_goal', 'update_site'];

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field by the assertions
type Answer = Record<string, any>;

export interface ReadToolCase {
  tool: string;
  args: Record<string, unknown>;
  /** The API request the tool stands for. */
  request: InjectOptions;
  /** Checks the tool's answer against the API's, and that the seeded data is in it. */
  check(tool: Answer, api: Answer): void;
}

/** Every read tool with the API call it must agree with; `sessionId` is a seeded visit. */
export function readToolCases(site: SeededSite, sessionId: string): ReadToolCase[] {
  const key = site.snippetKey;
  const q = (url: string, query: Record<string, string> = {}) =>
    ({ method: 'GET', url, query: { site_id: key, ...query } }) as const;
  return [
    {
      tool: 'list_sites',
      args: {},
      request: { method: 'GET', url: '/v1/sites' },
      check: (tool, api) => {
        expect(tool.sites).toEqual(api.sites);
        expect(tool.sites.map((s: Answer) => s.id)).toContain(key);
      },
    },
    {
      tool: 'get_site',
      args: { site_id: key },
      request: { method: 'GET', url: `/v1/sites/${key}` },
      check: (tool, api) => {
        expect(tool.site).toEqual(api);
        expect(tool.webhooks).toHaveLength(1);
      },
    },
    {
      tool: 'query_stats',
      args: {
        site_id: key,
        metrics: ['visitors', 'revenue_net'],
        date_range: '7d',
        dimensions: ['visit:channel'],
      },
      request: {
        method: 'POST',
        url: '/v1/stats/query',
        payload: {
          site_id: key,
          metrics: ['visitors', 'revenue_net'],
          date_range: '7d',
          dimensions: ['visit:channel'],
        },
      },
      check: (tool, api) => {
        const rows = api.results.map((row: Answer) => ({
          'visit:channel': row.dimensions[0],
          visitors: row.metrics[0],
          revenue_net: row.metrics[1],
        }));
        expect(tool.rows).toEqual(rows);
        expect(tool.rows).toContainEqual(expect.objectContaining({ 'visit:channel': 'ai', visitors: 2 }));
        expect(tool.units.revenue_net).toContain(api.meta.currency);
      },
    },
    {
      tool: 'get_realtime',
      args: { site_id: key },
      request: q('/v1/stats/realtime'),
      check: (tool, api) => {
        expect(tool).toMatchObject(api);
        expect(tool.visitors).toBe(1);
      },
    },
    {
      tool: 'list_goals',
      args: { site_id: key },
      request: q('/v1/goals'),
      check: (tool, api) => {
        expect(tool.goals).toEqual(api.goals);
        expect(tool.goals.map((g: Answer) => g.name)).toContain('signup');
      },
    },
    {
      tool: 'goal_timeseries',
      args: { site_id: key },
      request: q('/v1/goals/timeseries'),
      check: (tool, api) => {
        expect(tool.series).toEqual(api.series);
        expect(tool.series[0]).toMatchObject({ goal_name: 'signup', total: 3 });
      },
    },
    {
      tool: 'goal_properties',
      args: { site_id: key, goal_name: 'signup' },
      request: q('/v1/goals/signup/properties'),
      check: (tool, api) => {
        expect(tool.properties).toEqual(api.properties);
        expect(tool.properties).toContainEqual(expect.objectContaining({ key: 'plan' }));
      },
    },
    {
      tool: 'goal_visitors',
      args: { site_id: key, goal_name: 'signup' },
      request: q('/v1/goals/signup/visitors'),
      check: (tool, api) => {
        expect(tool.visitors).toEqual(api.visitors);
        expect(tool.total_count).toBe(3);
      },
    },
    {
      tool: 'list_sessions',
      args: { site_id: key, filters: [['is', 'visit:channel', ['ai']]] },
      request: q('/v1/sessions', { filters: JSON.stringify([['is', 'visit:channel', ['ai']]]) }),
      check: (tool, api) => {
        expect(tool.sessions).toEqual(api.sessions);
        expect(tool.sessions).toHaveLength(2);
      },
    },
    {
      tool: 'get_session',
      args: { site_id: key, session_id: sessionId },
      request: q(`/v1/sessions/${sessionId}`),
      check: (tool, api) => {
        expect(tool).toMatchObject(api);
        expect(tool.trail.length).toBeGreaterThan(0);
      },
    },
    {
      tool: 'list_events',
      args: { site_id: key, name: 'signup' },
      request: q('/v1/events', { name: 'signup' }),
      check: (tool, api) => {
        expect(tool.events).toEqual(api.events);
        expect(tool.events).toHaveLength(3);
      },
    },
    {
      tool: 'funnel_report',
      args: { site_id: key, funnel_id: site.funnelId },
      request: q(`/v1/funnels/${site.funnelId}/report`),
      check: (tool, api) => {
        expect(tool.steps).toEqual(api.steps);
        expect(tool.steps[0].visitors).toBe(4);
      },
    },
    {
      tool: 'revenue_by_source',
      args: { site_id: key },
      request: q('/v1/revenue'),
      check: (tool, api) => {
        expect(tool.totals).toEqual(api.totals);
        expect(tool.sources).toEqual(api.sources);
        expect(tool.sources[0]).toMatchObject({ source: 'chatgpt', gross: 49.9, refunded: 10 });
        expect(tool.units['gross, refunded, net']).toContain('major units of USD');
      },
    },
    {
      tool: 'crawler_report',
      args: { site_id: key },
      request: q('/v1/crawlers'),
      check: (tool, api) => {
        expect(tool.crawlers).toEqual(api.crawlers);
        expect(tool.crawlers[0]).toMatchObject({ crawler: 'GPTBot', hits: 3 });
      },
    },
    {
      tool: 'ai_visibility',
      args: { site_id: key },
      request: q('/v1/ai-visibility'),
      check: (tool, api) => {
        expect(tool.pages).toEqual(api.pages);
        expect(tool.pages.map((p: Answer) => p.page)).toContain('/pricing');
      },
    },
  ];
}
