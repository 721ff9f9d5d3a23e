/**
 * Helpers of the processor connection tests: the file's app listening on a real port (processor
 * webhooks arrive over real HTTP), a site with a visitor who came from an assistant, a
 * connection, a delivery, and the revenue report after the attribution worker ran.
 */
import { beforeAll, expect } from 'vitest';
import { arrive, type REFERRERS } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { bearer, type TestContext, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import type { ProcessorName } from './processor.js';

export interface ProcessorTestApp extends TestContext {
  /** `http://127.0.0.1:port` of the listening app. */
  readonly baseUrl: string;
}

/** `useTestApp()` whose app also listens on a free local port for the file's tests. */
export function useProcessorTestApp(): ProcessorTestApp {
  const t = useTestApp();
  let baseUrl: string | undefined;
  beforeAll(async () => {
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  const listening = Object.create(t) as ProcessorTestApp;
  Object.defineProperty(listening, 'baseUrl', {
    get() {
      if (!baseUrl) throw new Error('useProcessorTestApp: listening from beforeAll on');
      return baseUrl;
    },
  });
  return listening;
}

/** A new site of the owner and a visitor who arrived from `from` (an AI assistant by default). */
export async function siteWithVisitor(t: TestContext, from: keyof typeof REFERRERS = 'chatgpt') {
  const site = await insertSite(t, t.owner.accountId, {
    domain: `shop-${newVisitorId().toLowerCase()}.example.com`,
  });
  const visitorId = newVisitorId();
  await arrive(t, site, visitorId, from);
  return { site, visitorId };
}

export interface Connection {
  id: string;
  provider: string;
  receive_url: string;
  events_received: number;
  last_error: string | null;
  last_event_at: string | null;
}

/** Connects `provider` to the site with the owner's key; fails the test unless it answers 201. */
export async function connectProcessor(
  t: TestContext,
  siteKey: string,
  provider: ProcessorName,
  signingSecret: string,
  extra: Record<string, unknown> = {},
): Promise<Connection> {
  const response = await t.request({
    method: 'POST',
    url: `/v1/sites/${siteKey}/integrations`,
    headers: bearer(t.owner.apiKey),
    payload: { provider, signing_secret: signingSecret, ...extra },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

export async function listConnections(t: TestContext, siteKey: string): Promise<Connection[]> {
  const response = await t.request({
    method: 'GET',
    url: `/v1/sites/${siteKey}/integrations`,
    headers: bearer(t.owner.apiKey),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().connections;
}

/**
 * Posts a processor's webhook to the connection over real HTTP, exactly as given: the body as
 * text, the processor's signature headers, `content-type: application/json`.
 */
export async function deliver(
  t: ProcessorTestApp,
  connection: Pick<Connection, 'receive_url'>,
  body: string,
  headers: Record<string, string>,
) {
  const path = new URL(connection.receive_url).pathname;
  const response = await fetch(`${t.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Runs the attribution worker, then reads the revenue report of the site over the given days. */
export async function revenueReport(
  t: TestContext,
  siteKey: string,
  range: { from: string; to: string },
  model = 'last_touch',
) {
  await t.app.services.attribution.runUntilIdle();
  const response = await t.request({
    method: 'GET',
    url: `/v1/revenue?site_id=${siteKey}&from=${range.from}&to=${range.to}&attribution_model=${model}`,
    headers: bearer(t.owner.apiKey),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    currency: string;
    totals: { gross: number; refunded: number; net: number; conversions: number; trials: number };
    sources: { source: string; gross: number; refunded: number; net: number; conversions: number }[];
  };
}

/** The site's stored payments (for checks the reports cannot make, such as "nothing stored"). */
export function storedPayments(t: TestContext, siteId: string) {
  return t.database.db
    .selectFrom('payments')
    .select([
      'transaction_id',
      'provider',
      'kind',
      'amount_minor',
      'currency',
      'refunded_minor',
      'renewal',
      'visitor_id',
    ])
    .where('site_id', '=', siteId)
    .orderBy('paid_at')
    .execute();
}
