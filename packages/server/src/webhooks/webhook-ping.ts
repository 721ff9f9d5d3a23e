/**
 * Pings: one signed `webhook.ping` attempt, sent at creation and by `POST …/test`, never
 * retried. The ping is recorded in the delivery log as succeeded or failed once it is over,
 * and moves the endpoint's verification status (interface §3.3).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { createdAtAllocator, insertDeliveries, lastCreatedMicros } from './dispatch.store.js';
import { buildEnvelope, newEnvelopeId, signedHeaders } from './webhook-envelope.js';
import { openSecret, type SecretBox } from './webhook-secrets.js';
import { PING_EVENT_TYPE, type VerificationStatus } from './webhook-tables.js';
import type { AttemptResult, Transport } from './webhook-transport.js';
import { lockWebhook, setVerification, type WebhookRow } from './webhooks.store.js';

/**
 * §3.3: the creation ping (`current` null) decides verified or unverified; a 2xx ping verifies
 * (from `failing` too — the interface leaves that open; a proven endpoint is verified again);
 * a failed ping turns `verified` into `failing` and leaves the other states as they are.
 */
export function verificationAfterPing(current: VerificationStatus | null, ok: boolean): VerificationStatus {
  if (ok) return 'verified';
  if (current === null) return 'unverified';
  return current === 'verified' ? 'failing' : current;
}

export interface PingDeps {
  db: Kysely<DB>;
  clock: Clock;
  wallClock: Clock;
  transport: Transport;
  secrets: SecretBox;
}

export interface PingResult extends AttemptResult {
  verificationStatus: VerificationStatus;
}

export async function sendPing(
  deps: PingDeps,
  webhook: WebhookRow,
  options: { isCreation: boolean },
): Promise<PingResult> {
  const { db, clock } = deps;
  const envelopeId = newEnvelopeId();
  const createdAt = clock.now();
  const body = buildEnvelope(PING_EVENT_TYPE, envelopeId, createdAt, {
    site_id: webhook.site_id,
    webhook_id: webhook.id,
  });
  const secret = openSecret(deps.secrets, webhook.secret_sealed, webhook.id);
  const result = await deps.transport.post(
    webhook.url,
    signedHeaders(secret, envelopeId, body, deps.wallClock.now()),
    body,
  );
  const now = clock.now();
  const verificationStatus = await db.transaction().execute(async (trx) => {
    const locked = await lockWebhook(trx, webhook.id);
    // Deleted while the ping was in flight: nothing to record.
    if (!locked)
      return verificationAfterPing(options.isCreation ? null : webhook.verification_status, result.ok);
    const allocate = createdAtAllocator(
      await lastCreatedMicros(trx, [webhook.id]),
      createdAt.getTime() * 1000,
    );
    await insertDeliveries(trx, [
      {
        site_id: webhook.site_id,
        id: newId(),
        webhook_id: webhook.id,
        event_type: PING_EVENT_TYPE,
        envelope_id: envelopeId,
        dedupe_key: envelopeId,
        payload: body,
        status: result.ok ? 'succeeded' : 'failed',
        attempt_count: 1,
        response_status: result.status,
        last_error: result.error,
        next_attempt_at: null,
        last_attempt_at: now,
        created_at: allocate(webhook.id),
      },
    ]);
    const next = verificationAfterPing(options.isCreation ? null : locked.verification_status, result.ok);
    await setVerification(trx, webhook.id, next, now);
    return next;
  });
  return { ...result, verificationStatus };
}
