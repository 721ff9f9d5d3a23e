/**
 * The `before` cursor of the session listing: the last listed visit's start, to the microsecond
 * PostgreSQL keeps, and its id, so visits that started at the same moment are neither skipped nor
 * repeated. Base64url text: opaque to clients, though nothing in it is secret (a visit id is what
 * the listing shows anyway).
 */
import { UUID_PATTERN } from '../lib/ids.js';

export interface SessionCursor {
  /** UTC, `YYYY-MM-DDTHH:MM:SS.ffffff`. */
  startedAt: string;
  id: string;
}

const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

export function encodeSessionCursor(cursor: SessionCursor): string {
  return Buffer.from(`${cursor.startedAt}|${cursor.id}`).toString('base64url');
}

/** The cursor, or null for text this listing did not make. */
export function decodeSessionCursor(text: string): SessionCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) return null;
  const [startedAt, id, ...rest] = bytes.toString('utf8').split('|');
  if (rest.length > 0 || !startedAt || !id || !EXACT_TIME.test(startedAt) || !UUID_PATTERN.test(id))
    return null;
  // Digits in the right places can still name no moment (February 30); PostgreSQL would refuse them.
  const millis = `${startedAt.slice(0, 23)}Z`;
  const date = new Date(millis);
  if (startedAt < '0001' || Number.isNaN(date.getTime()) || date.toISOString() !== millis) return null;
  return { startedAt, id: id.toLowerCase() };
}
