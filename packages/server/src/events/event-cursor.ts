/**
 * The `before` cursor of the event listing: base64url of the JSON pair [occurred_at, event_id]
 * of the last row shown. The time keeps PostgreSQL's microseconds and the id breaks ties, so
 * rows sharing a timestamp are neither repeated nor skipped across pages. Opaque to clients.
 */
import { badInput } from '../http/errors.js';

export interface EventCursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`, as the listing query writes it. */
  at: string;
  eventId: string;
}

const AT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Longer than any stored event id (server ids are at most 128 characters). */
const EVENT_ID_MAX = 200;
export const CURSOR_MAX_CHARS = 400;

export function encodeCursor(cursor: EventCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.eventId])).toString('base64url');
}

/** A real instant of years 0001–9999 (PostgreSQL refuses year 0; JavaScript rolls 30 February over). */
function isInstant(at: string): boolean {
  if (!AT_PATTERN.test(at) || at < '0001') return false;
  const date = new Date(at);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === at.slice(0, 19);
}

/** The cursor, or a 422 naming `before` for anything this listing did not hand out. */
export function decodeCursor(text: string): EventCursor {
  const invalid = () => badInput('before', 'before must be the next_before of an earlier page', 'query');
  if (text.length > CURSOR_MAX_CHARS || !BASE64URL.test(text)) throw invalid();
  let pair: unknown;
  try {
    pair = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(pair) || pair.length !== 2) throw invalid();
  const [at, eventId] = pair;
  if (typeof at !== 'string' || !isInstant(at)) throw invalid();
  if (typeof eventId !== 'string' || eventId.length === 0 || eventId.length > EVENT_ID_MAX) throw invalid();
  return { at, eventId };
}
