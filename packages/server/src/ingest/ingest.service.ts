/**
 * The ingest pipeline, as named steps: parse (routes) → drop bots → enrich (device, location,
 * personal data removed, identity hashed) → group commit (batch-writer.ts), which resolves the
 * site and answers each request once its batch is committed. Drops are counted by reason.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { KeyPrincipal } from '../access/principal.js';
import { isDataError } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError, badInput } from '../http/errors.js';
import { emailPersonKey, personKeyFor, userPersonKey } from '../identity/person-key.js';
import { type Clock, HOUR_MS } from '../lib/clock.js';
import { GroupCommitter } from '../lib/group-commit.js';
import { redactProperties, redactUrl } from '../lib/redact.js';
import { storableText } from '../lib/storable-text.js';
import { siteSuspended } from '../sites/site-intake.js';
import { countRefusal } from '../sites/site-refusals.js';
import { createBatchWriter } from './batch-writer.js';
import type { CollectPayload, ServerEvent } from './collect.schemas.js';
import { createDeviceParser } from './device.js';
import type { Location } from './geo.js';
import * as ingestStore from './ingest.store.js';
import type { IngestItem, IngestOutcome } from './ingest-item.js';

export type DropReason = 'bot' | 'unknown_site' | 'site_deleted';

export interface RequestContext {
  userAgent: string | undefined;
  location: Location;
}

const MAX_FUTURE_MS = 24 * HOUR_MS;
const NO_DEVICE = { device_type: '', os: '', browser: '' };
const NOWHERE = { country_code: '', city: '' };

export function createIngestService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  secretKey: string;
  batch?: { maxBatch: number; maxWaitMs: number };
}) {
  const { clock, secretKey } = deps;
  const committer = new GroupCommitter<IngestItem, IngestOutcome>(createBatchWriter({ db: deps.db, clock }), {
    ...(deps.batch ?? { maxBatch: 500, maxWaitMs: 0 }),
    isItemError: isDataError,
  });
  const devices = createDeviceParser();
  const drops: Record<DropReason, number> = { bot: 0, unknown_site: 0, site_deleted: 0 };

  async function commit(item: IngestItem): Promise<IngestOutcome> {
    let outcome: IngestOutcome;
    try {
      outcome = await committer.submit(item);
    } catch (error) {
      // Nothing of the failed batch was committed; the client retries with the same event id.
      throw new AppError(503, 'unavailable', 'Could not record the event; retry', {}, error);
    }
    if (outcome === 'unknown_site' || outcome === 'site_deleted') drops[outcome] += 1;
    if (outcome === 'unknown_site') throw new AppError(404, 'not_found', 'Unknown site key');
    if (outcome === 'site_deleted') throw siteSuspended();
    return outcome;
  }

  return {
    drops,

    /** One tracker payload. Bots are acknowledged and not stored. */
    async collect(
      payload: CollectPayload,
      context: RequestContext,
    ): Promise<'recorded' | 'duplicate' | 'bot'> {
      if (devices.isBot(context.userAgent)) {
        drops.bot += 1;
        // Best-effort: the count is a hint for the install card, and a bot's answer never
        // depended on the database; losing one count (database down) must not fail it.
        await countRefusal(deps.db, { snippetKey: payload.site, reason: 'bot', at: clock.now() }).catch(
          () => undefined,
        );
        return 'bot';
      }
      const now = clock.now();
      return commit({
        origin: 'browser',
        snippetKey: payload.site,
        type: payload.type,
        eventId: payload.eid,
        visitorId: payload.vid,
        personKey: payload.type === 'identify' ? personKeyFor(secretKey, payload.uid) : null,
        name: payload.type === 'event' ? payload.name : null,
        url: redactUrl(payload.url),
        referrer: payload.type === 'pageview' ? storableText(payload.ref ?? '') : '',
        properties: payload.type === 'event' ? redactProperties(payload.props ?? {}) : null,
        value:
          payload.type === 'event' && payload.value !== undefined
            ? { amount: payload.value, currency: payload.currency ?? null }
            : null,
        engagedMs: payload.type === 'engagement' ? payload.engaged_ms : 0,
        occurredAt: now,
        receivedAt: now,
        device: devices.describe(context.userAgent, payload.sw),
        location: context.location,
      }) as Promise<'recorded' | 'duplicate'>;
    },

    /** A conversion event reported by the site's own server. */
    async recordServerEvent(principal: KeyPrincipal, event: ServerEvent) {
      const now = clock.now();
      const occurredAt = event.timestamp ? new Date(event.timestamp) : now;
      if (occurredAt.getTime() > now.getTime() + MAX_FUTURE_MS) {
        throw badInput('timestamp', 'timestamp is more than 24 hours in the future');
      }
      // The user id names the person; the email, when sent too, also links the visitor, so a
      // payment that carries only the email finds this visitor's visits.
      const emailKey = event.email ? emailPersonKey(secretKey, event.email) : null;
      const personKey = event.user_id ? userPersonKey(secretKey, event.user_id) : emailKey;
      const eventId = event.event_id ?? `srv_${randomUUID()}`;
      const status = await commit({
        origin: 'server',
        snippetKey: event.site_id,
        type: 'event',
        eventId,
        visitorId: event.visitor_id ?? null,
        personKey,
        ...(event.user_id && emailKey ? { emailKey } : {}),
        name: event.name,
        url: '',
        referrer: '',
        properties: redactProperties(event.properties ?? {}),
        value: event.value === undefined ? null : { amount: event.value, currency: event.currency ?? null },
        engagedMs: 0,
        occurredAt,
        receivedAt: now,
        device: NO_DEVICE,
        location: NOWHERE,
        access: { accountId: principal.accountId, siteId: principal.siteId },
      });
      return { status, event_id: eventId };
    },

    /**
     * Events and identity links in the caller's transaction, written as the ingest batch writes
     * them (a stored event id is skipped; only inserted events reach the goal rollups and get
     * attribution jobs). Payments record their conversion this way.
     */
    recordEvents: ingestStore.recordEvents,

    /** Writes what is queued; called on shutdown before the database closes. */
    drain: () => committer.drain(),
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
