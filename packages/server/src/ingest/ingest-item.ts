/** What one accepted request becomes before it joins a batch: parsed, checked and enriched. */
import type { EventType } from '../db/ingest-types.js';
import type { PropertyValue } from '../lib/redact.js';
import type { Device } from './device.js';
import type { Location } from './geo.js';

export interface IngestItem {
  origin: 'browser' | 'server';
  snippetKey: string;
  type: EventType;
  eventId: string;
  visitorId: string | null;
  personKey: string | null;
  /** A second key the visitor is linked to: a server event's email when its user id is the person. */
  emailKey?: string;
  name: string | null;
  /** Page URL with personal data already removed ('' for server events without one). */
  url: string;
  /** The referrer as the browser sent it; only its host and campaign are kept. */
  referrer: string;
  properties: Record<string, PropertyValue> | null;
  value: { amount: number; currency: string | null } | null;
  engagedMs: number;
  occurredAt: Date;
  receivedAt: Date;
  device: Device;
  location: Location;
  /** Server events: the key's account and site restriction; a site outside them is unknown. */
  access?: { accountId: string; siteId: string | null };
}
