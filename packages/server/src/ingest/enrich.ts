/**
 * The `check_time` and `enrich` steps (pipeline.ts): a parsed tracker payload or server event
 * becomes the item a batch writes, with its device and location, personal data removed from the
 * URL and properties, and people named by keys hashed with the server secret.
 */
import { randomUUID } from 'node:crypto';
import type { KeyPrincipal } from '../access/principal.js';
import { badInput } from '../http/errors.js';
import { emailPersonKey, personKeyFor, userPersonKey } from '../identity/person-key.js';
import { HOUR_MS } from '../lib/clock.js';
import { redactProperties, redactUrl } from '../lib/redact.js';
import { storableText } from '../lib/storable-text.js';
import type { CollectPayload, ServerEvent } from './collect.schemas.js';
import type { Device } from './device.js';
import type { Location } from './geo.js';
import type { IngestItem } from './ingest-item.js';

const MAX_FUTURE_MS = 24 * HOUR_MS;
const NO_DEVICE = { device_type: '', os: '', browser: '' };
const NOWHERE = { country_code: '', city: '' };

export function browserItem(
  payload: CollectPayload,
  context: { device: Device; location: Location; secretKey: string; now: Date },
): IngestItem {
  return {
    origin: 'browser',
    snippetKey: payload.site,
    type: payload.type,
    eventId: payload.eid,
    visitorId: payload.vid,
    personKey: payload.type === 'identify' ? personKeyFor(context.secretKey, payload.uid) : null,
    name: payload.type === 'event' ? payload.name : null,
    url: redactUrl(payload.url),
    referrer: payload.type === 'pageview' ? storableText(payload.ref ?? '') : '',
    properties: payload.type === 'event' ? redactProperties(payload.props ?? {}) : null,
    value:
      payload.type === 'event' && payload.value !== undefined
        ? { amount: payload.value, currency: payload.currency ?? null }
        : null,
    engagedMs: payload.type === 'engagement' ? payload.engaged_ms : 0,
    occurredAt: context.now,
    receivedAt: context.now,
    device: context.device,
    location: context.location,
  };
}

/** `check_time`: a server event may be backdated, but not dated more than a day ahead. */
export function checkServerEventTime(event: ServerEvent, now: Date): Date {
  const occurredAt = event.timestamp ? new Date(event.timestamp) : now;
  if (occurredAt.getTime() > now.getTime() + MAX_FUTURE_MS) {
    throw badInput('timestamp', 'timestamp is more than 24 hours in the future');
  }
  return occurredAt;
}

export function serverItem(
  principal: KeyPrincipal,
  event: ServerEvent,
  context: { occurredAt: Date; secretKey: string; now: Date },
): IngestItem {
  const { secretKey } = context;
  // The user id names the person; the email, when sent too, also links the visitor, so a
  // payment that carries only the email finds this visitor's visits.
  const emailKey = event.email ? emailPersonKey(secretKey, event.email) : null;
  const personKey = event.user_id ? userPersonKey(secretKey, event.user_id) : emailKey;
  return {
    origin: 'server',
    snippetKey: event.site_id,
    type: 'event',
    eventId: event.event_id ?? `srv_${randomUUID()}`,
    visitorId: event.visitor_id ?? null,
    personKey,
    ...(event.user_id && emailKey ? { emailKey } : {}),
    name: event.name,
    url: '',
    referrer: '',
    properties: redactProperties(event.properties ?? {}),
    value: event.value === undefined ? null : { amount: event.value, currency: event.currency ?? null },
    engagedMs: 0,
    occurredAt: context.occurredAt,
    receivedAt: context.now,
    device: NO_DEVICE,
    location: NOWHERE,
    access: { accountId: principal.accountId, siteId: principal.siteId },
  };
}
