/**
 * Rules of outbound webhooks (interface §4.3, §3.3): endpoint management, pings, secret
 * rotation and the delivery log; the background side (fan-out, delivery, retention) is composed
 * in from webhook-jobs.ts. A site the caller cannot reach, or one in its deletion window, is a
 * `not_found` without a resource (403 Forbidden in this area); an unknown endpoint is a
 * `not_found` with `resource: 'webhook'` (a bare 404).
 */
import { readFileSync } from 'node:fs';
import type { Kysely, Updateable } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';
import { AppError } from '../http/errors.js';
import { type Clock, MINUTE_MS, systemClock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { SitesService } from '../sites/sites.service.js';
import { listDeliveries } from './deliveries.store.js';
import { createWebhookJobs } from './webhook-jobs.js';
import { sendPing } from './webhook-ping.js';
import { createSecretBox, newWebhookSecret } from './webhook-secrets.js';
import type { DeliveryStatus, EventType, WebhooksTable } from './webhook-tables.js';
import { createTransport, type Transport } from './webhook-transport.js';
import { checkWebhookUrl, type ResolveAll } from './webhook-url.js';
import { presentDelivery, presentWebhook } from './webhook-view.js';
import * as store from './webhooks.store.js';

export const MAX_WEBHOOKS_PER_SITE = 10;
export const TEST_PINGS_PER_MINUTE = 5;
const DEFAULT_EVENT_TYPES: EventType[] = ['ai_session.classified'];

export interface WebhooksDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: Pick<Config, 'secretKey' | 'webhookAllowPrivateTargets' | 'extraCaCertsFile'>;
  sites: Pick<SitesService, 'resolveSite'>;
  /** Overrides for tests and benchmarks; production builds them from `config`. */
  transport?: Transport;
  wallClock?: Clock;
  random?: () => number;
  resolve?: ResolveAll;
}

const webhookNotFound = () =>
  new AppError(404, 'not_found', 'Webhook not found', { extra: { resource: 'webhook' } });

export function createWebhooksService(deps: WebhooksDeps) {
  const { db, clock, config } = deps;
  if (!config.secretKey) throw new Error('config.secretKey must be resolved before the webhooks service');
  const secrets = createSecretBox(config.secretKey);
  const allowPrivate = config.webhookAllowPrivateTargets;
  const transport =
    deps.transport ??
    createTransport({
      allowPrivateTargets: allowPrivate,
      extraCa: config.extraCaCertsFile ? readFileSync(config.extraCaCertsFile, 'utf8') : undefined,
    });
  const wallClock = deps.wallClock ?? systemClock;
  const pingDeps = { db, clock, wallClock, transport, secrets };
  const checkUrl = (url: string) => checkWebhookUrl(url, { allowPrivate, resolve: deps.resolve });
  const eventTypesOf = (types: readonly EventType[]) => [...new Set(types)];

  const requireSite = (principal: Principal, ref: string) =>
    deps.sites.resolveSite(principal, ref, { includeScheduled: false });

  async function requireWebhook(principal: Principal, ref: string, webhookId: string) {
    const site = await requireSite(principal, ref);
    const webhook = await store.findWebhook(db, site.id, webhookId.toLowerCase());
    if (!webhook) throw webhookNotFound();
    return { site, webhook };
  }

  return {
    /** True when built with WEBHOOK_ALLOW_PRIVATE_TARGETS (tests only). */
    allowsPrivateTargets: allowPrivate,

    async list(principal: Principal, ref: string) {
      const site = await requireSite(principal, ref);
      const rows = await store.listWebhooks(db, site.id);
      return rows.map((row) => presentWebhook(row, site.snippet_key));
    },

    /** Stores the endpoint, then sends its creation ping; creation succeeds whatever the ping does. */
    async create(principal: Principal, ref: string, input: { url: string; event_types?: EventType[] }) {
      const site = await requireSite(principal, ref);
      const url = await checkUrl(input.url);
      const id = newId();
      const secret = newWebhookSecret();
      const now = clock.now();
      const row = await db.transaction().execute(async (trx) => {
        await store.lockSiteWebhooks(trx, site.id);
        if ((await store.countWebhooks(trx, site.id)) >= MAX_WEBHOOKS_PER_SITE) {
          throw new AppError(409, 'conflict', `A site can have at most ${MAX_WEBHOOKS_PER_SITE} webhooks`, {
            extra: { code: 'webhook_limit_reached' },
          });
        }
        return store.insertWebhook(trx, {
          site_id: site.id,
          id,
          url,
          event_types: eventTypesOf(input.event_types ?? DEFAULT_EVENT_TYPES),
          verification_status: 'unverified',
          secret_sealed: secrets.seal(secret, id),
          created_at: now,
          updated_at: now,
        });
      });
      const ping = await sendPing(pingDeps, row, { isCreation: true });
      const current = (await store.findWebhook(db, site.id, id)) ?? {
        ...row,
        verification_status: ping.verificationStatus,
      };
      return { ...presentWebhook(current, site.snippet_key), secret };
    },

    async update(
      principal: Principal,
      ref: string,
      webhookId: string,
      input: { url?: string; event_types?: EventType[]; enabled?: boolean },
    ) {
      const { site, webhook } = await requireWebhook(principal, ref, webhookId);
      const changes: Updateable<WebhooksTable> = { updated_at: clock.now() };
      if (input.url !== undefined) {
        changes.url = await checkUrl(input.url);
        // A new address has proven nothing yet.
        if (changes.url !== webhook.url) changes.verification_status = 'unverified';
      }
      if (input.event_types !== undefined) changes.event_types = eventTypesOf(input.event_types);
      if (input.enabled !== undefined) changes.enabled = input.enabled;
      // Enabling again, or a new address, starts a fresh five-day failure window.
      if ((input.enabled && !webhook.enabled) || changes.verification_status) changes.failing_since = null;
      const updated = await store.updateWebhook(db, site.id, webhook.id, changes);
      if (!updated) throw webhookNotFound();
      return presentWebhook(updated, site.snippet_key);
    },

    /** Immediate; the delivery log goes with the endpoint. */
    async remove(principal: Principal, ref: string, webhookId: string) {
      const site = await requireSite(principal, ref);
      if (!(await store.deleteWebhook(db, site.id, webhookId.toLowerCase()))) throw webhookNotFound();
    },

    /** One signed ping, allowed on a disabled endpoint; capped per endpoint (429, nothing changed). */
    async test(principal: Principal, ref: string, webhookId: string) {
      const { webhook } = await requireWebhook(principal, ref, webhookId);
      const now = clock.now();
      const windowStart = new Date(now.getTime() - MINUTE_MS);
      if (!(await store.takeTestSlot(db, webhook.id, now, windowStart, TEST_PINGS_PER_MINUTE))) {
        throw new AppError(
          429,
          'rate_limited',
          `Test pings are capped at ${TEST_PINGS_PER_MINUTE} a minute per webhook`,
          {
            extra: { retry_after_seconds: 60 },
          },
        );
      }
      const ping = await sendPing(pingDeps, webhook, { isCreation: false });
      return {
        ok: ping.ok,
        status_code: ping.status ?? 0,
        latency_ms: ping.latencyMs,
        response_snippet: ping.status === null ? (ping.error ?? '') : ping.snippet,
        verification_status: ping.verificationStatus,
      };
    },

    /** A new secret at once: the old one signs nothing from now on. */
    async rotateSecret(principal: Principal, ref: string, webhookId: string) {
      const { site, webhook } = await requireWebhook(principal, ref, webhookId);
      const secret = newWebhookSecret();
      const sealed = secrets.seal(secret, webhook.id);
      const updated = await store.updateWebhook(db, site.id, webhook.id, {
        secret_sealed: sealed,
        updated_at: clock.now(),
      });
      if (!updated) throw webhookNotFound();
      return { id: webhook.id, secret };
    },

    async listDeliveries(
      principal: Principal,
      ref: string,
      webhookId: string,
      query: { limit?: number; status?: DeliveryStatus; before?: string },
    ) {
      const { webhook } = await requireWebhook(principal, ref, webhookId);
      const limit = query.limit ?? 50;
      const rows = await listDeliveries(db, webhook.id, { ...query, limit });
      const last = rows.at(-1);
      return {
        deliveries: rows.map(presentDelivery),
        next_before: rows.length === limit && last ? last.created_at_text : null,
      };
    },

    ...createWebhookJobs({ db, clock, wallClock, transport, secrets, random: deps.random ?? Math.random }),
    close: () => transport.close(),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
