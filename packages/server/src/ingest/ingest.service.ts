/**
 * The ingest service runs the steps of pipeline.ts that happen per item, in their order: drop
 * bots (tracker payloads) or check the time (server events), enrich, then group commit into the
 * batch writer (batch-writer.ts), which answers each request once its batch is committed. Every
 * item's end is told to the observer (/metrics); bots are also counted per site.
 */
import type { Kysely } from 'kysely';
import type { KeyPrincipal } from '../access/principal.js';
import { isDataError } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { GroupCommitter } from '../lib/group-commit.js';
import { siteSuspended } from '../sites/site-intake.js';
import { countRefusal, type RefusalReason } from '../sites/site-refusals.js';
import { createBatchWriter } from './batch-writer.js';
import type { CollectPayload, ServerEvent } from './collect.schemas.js';
import { createDeviceParser } from './device.js';
import { browserItem, checkServerEventTime, serverItem } from './enrich.js';
import type { Location } from './geo.js';
import * as ingestStore from './ingest.store.js';
import type { IngestItem } from './ingest-item.js';
import type { CommitOutcome, DropReason, IngestObserver } from './pipeline.js';

export interface RequestContext {
  userAgent: string | undefined;
  location: Location;
}

/** Every reason the per-site refusal counts hold is one of the pipeline's drop reasons. */
const SITE_REFUSALS = { bot: 'bot' } as const satisfies Record<RefusalReason, DropReason>;

const NO_OBSERVER: IngestObserver = { item() {}, dropped() {}, batch() {} };

export function createIngestService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  secretKey: string;
  batch?: { maxBatch: number; maxWaitMs: number };
}) {
  const { clock, secretKey } = deps;
  let observer = NO_OBSERVER;
  const writeBatch = createBatchWriter({ db: deps.db, clock });
  const committer = new GroupCommitter<IngestItem, CommitOutcome>(
    async (items) => {
      const started = performance.now();
      const outcomes = await writeBatch(items);
      observer.batch({ items: items.length, seconds: (performance.now() - started) / 1000 });
      return outcomes;
    },
    { ...(deps.batch ?? { maxBatch: 500, maxWaitMs: 0 }), isItemError: isDataError },
  );
  const devices = createDeviceParser();
  let waiting = 0;

  async function commit(item: IngestItem): Promise<'recorded' | 'duplicate'> {
    let outcome: CommitOutcome;
    waiting += 1;
    try {
      outcome = await committer.submit(item);
    } catch (error) {
      observer.item('failed');
      // Nothing of the failed batch was committed; the client retries with the same event id.
      throw new AppError(503, 'unavailable', 'Could not record the event; retry', {}, error);
    } finally {
      waiting -= 1;
    }
    if (outcome === 'unknown_site') {
      observer.dropped(outcome);
      throw new AppError(404, 'not_found', 'Unknown site key');
    }
    if (outcome === 'site_deleted') {
      observer.dropped(outcome);
      throw siteSuspended();
    }
    observer.item(outcome);
    return outcome;
  }

  return {
    /** Replaces the observer told of each item's end and each batch (the metrics module's). */
    observe(next: IngestObserver) {
      observer = next;
    },

    /** Items of this process waiting for their batch to commit. */
    waiting: () => waiting,

    /** An item the routes refused before it reached the service (rate limit, bad body). */
    refused(reason: DropReason) {
      observer.dropped(reason);
    },

    /** One tracker payload. Bots are acknowledged and not stored. */
    async collect(
      payload: CollectPayload,
      context: RequestContext,
    ): Promise<'recorded' | 'duplicate' | 'bot'> {
      if (devices.isBot(context.userAgent)) {
        observer.dropped('bot');
        // Best-effort: the count is a hint for the install card, and a bot's answer never
        // depended on the database; losing one count (database down) must not fail it.
        await countRefusal(deps.db, {
          snippetKey: payload.site,
          reason: SITE_REFUSALS.bot,
          at: clock.now(),
        }).catch(() => undefined);
        return 'bot';
      }
      return commit(
        browserItem(payload, {
          device: devices.describe(context.userAgent, payload.sw),
          location: context.location,
          secretKey,
          now: clock.now(),
        }),
      );
    },

    /** A conversion event reported by the site's own server. */
    async recordServerEvent(principal: KeyPrincipal, event: ServerEvent) {
      const now = clock.now();
      // A refused time is counted with the other bad bodies, by the route (countRefusals).
      const occurredAt = checkServerEventTime(event, now);
      const item = serverItem(principal, event, { occurredAt, secretKey, now });
      const status = await commit(item);
      return { status, event_id: item.eventId };
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
