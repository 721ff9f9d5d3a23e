/**
 * The app as the webhook suites use it: built with the test-only WEBHOOK_ALLOW_PRIVATE_TARGETS
 * (receivers listen on 127.0.0.1) and the test CA as NODE_EXTRA_CA_CERTS, an owner with an
 * all-scope key, one site, and a small client for `/v1/sites/{siteId}/webhooks`.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';
import { type Auth, addSite, asKey, type CreatedSite, siteUuid } from '../sites/sites.fixtures.js';
import {
  createTestApp,
  type Owner,
  setUpOwner,
  type TestApp,
  type TestContext,
  useTestApp,
} from '../test/app.js';
import {
  createTestPki,
  pkiCaFile,
  type ReceivedRequest,
  type ReceiverHandler,
  startReceiver,
  type TestPki,
  type TestReceiver,
} from './webhooks.fixtures.js';

export interface WebhookTestApp {
  t: TestApp;
  pki: TestPki;
  owner: Owner;
  site: CreatedSite;
  siteId: string;
  api: WebhookApi;
  close(): Promise<void>;
}

const webhookEnv = (caFile: string, env: Record<string, string>) => ({
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  NODE_EXTRA_CA_CERTS: caFile,
  ...env,
});

export async function createWebhookTestApp(env: Record<string, string> = {}): Promise<WebhookTestApp> {
  const pki = createTestPki();
  const t = await createTestApp(webhookEnv(pki.caFile, env));
  const owner = await setUpOwner(t);
  const site = await addSite(t, asKey(owner.apiKey), 'shop.example');
  return {
    t,
    pki,
    owner,
    site,
    siteId: await siteUuid(t, site.site_id),
    api: webhookApi(t, asKey(owner.apiKey), site.site_id),
    async close() {
      await t.close();
      pki.remove();
    },
  };
}

/** The webhook app of one test file, with receivers that close when it does. */
export interface WebhookTestContext {
  t: TestContext;
  pki: TestPki;
  owner: Owner;
  site: CreatedSite;
  siteId: string;
  api: WebhookApi;
  /** An HTTPS receiver on 127.0.0.1 (the CA-signed leaf unless `tls` says otherwise), closed after the file. */
  startReceiver(handler?: ReceiverHandler, tls?: TestPki['leaf']): Promise<TestReceiver>;
}

/**
 * `createWebhookTestApp` as one line of a test file: `const w = useWebhookTestApp()` makes the
 * PKI, boots the app with its owner and site before the file's tests, and after them closes the
 * receivers, the app and removes the PKI.
 */
export function useWebhookTestApp(
  env: Record<string, string> = {},
  options: { clickhouse?: boolean } = {},
): WebhookTestContext {
  // The app's config names the CA file before the PKI is made in it.
  const pkiFolder = path.join(tmpdir(), `touchtrail-pki-${randomUUID()}`);
  let pki: TestPki | undefined;
  let site: { site: CreatedSite; siteId: string; api: WebhookApi } | undefined;
  const receivers: TestReceiver[] = [];
  // Hooks run in order and their teardowns in reverse: the PKI is made first and removed last.
  beforeAll(() => {
    pki = createTestPki(pkiFolder);
  });
  afterAll(() => pki?.remove());
  const t = useTestApp(webhookEnv(pkiCaFile(pkiFolder), env), options);
  beforeAll(async () => {
    const created = await addSite(t, asKey(t.owner.apiKey), 'shop.example');
    site = {
      site: created,
      siteId: await siteUuid(t, created.site_id),
      api: webhookApi(t, asKey(t.owner.apiKey), created.site_id),
    };
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useWebhookTestApp: the app exists from beforeAll on');
    return value;
  };
  return {
    t,
    get pki() {
      return ready(pki);
    },
    get owner() {
      return t.owner;
    },
    get site() {
      return ready(site).site;
    },
    get siteId() {
      return ready(site).siteId;
    },
    get api() {
      return ready(site).api;
    },
    async startReceiver(handler, tls = ready(pki).leaf) {
      const receiver = await startReceiver(tls, handler);
      receivers.push(receiver);
      return receiver;
    },
  };
}

export type WebhookApi = ReturnType<typeof webhookApi>;

/** Requests to one site's webhooks as `auth`; every call returns the raw response. */
export function webhookApi(t: TestApp, auth: Auth, siteRef: string) {
  const base = `/v1/sites/${siteRef}/webhooks`;
  const send = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    t.request({ method, url, headers: auth, ...(payload === undefined ? {} : { payload }) });
  return {
    list: () => send('GET', base),
    create: (body: object) => send('POST', base, body),
    update: (id: string, body: object) => send('PATCH', `${base}/${id}`, body),
    remove: (id: string) => send('DELETE', `${base}/${id}`),
    test: (id: string) => send('POST', `${base}/${id}/test`),
    rotate: (id: string) => send('POST', `${base}/${id}/rotate-secret`),
    deliveries: (id: string, query = '') =>
      send('GET', `${base}/${id}/deliveries${query ? `?${query}` : ''}`),
    /** Creates an endpoint and fails the test unless it was created. */
    async add(url: string, eventTypes?: string[]) {
      const response = await send('POST', base, { url, ...(eventTypes ? { event_types: eventTypes } : {}) });
      if (response.statusCode !== 201) throw new Error(`webhook creation failed: ${response.body}`);
      return response.json() as { id: string; secret: string; verification_status: string; url: string };
    },
  };
}

/** The payload a receiver got, verified with `secret` as a receiver would (throws if it does not verify). */
export function verifyReceived(request: ReceivedRequest, secret: string) {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
    type: string;
    id: string;
    created_at: string;
    data: Record<string, unknown>;
  };
}

/** Writes a fact to the outbox as ingest or the attribution job would; returns its dedupe key. */
export async function insertFact(t: TestApp, siteId: string, type = 'ai_session.classified') {
  const dedupeKey = randomUUID();
  await t.database.db
    .insertInto('outbox_events')
    .values({
      site_id: siteId,
      id: randomUUID(),
      type,
      dedupe_key: dedupeKey,
      payload: JSON.stringify({ visit_id: dedupeKey, ai_source: 'perplexity' }),
      created_at: t.clock.now(),
    })
    .execute();
  return dedupeKey;
}

/** Rows of the delivery log straight from the database, oldest first. */
export function deliveryRows(t: TestApp, webhookId: string) {
  return t.database.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at')
    .execute();
}
