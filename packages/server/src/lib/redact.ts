/**
 * Personal data removed at the edge: email addresses and phone numbers inside property values
 * and URL query strings become `[REDACTED]` before anything is stored. Keys are left as sent,
 * except that every text is made storable (lib/storable-text.ts).
 */
import { storableText } from './storable-text.js';

export const REDACTED = '[REDACTED]';

const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
// A phone number: an optional +, then 7 to 15 digits, possibly split by spaces, dots, dashes or
// brackets. Plain long numbers (order ids) are left alone unless they start with + or a bracket.
const PHONE = /(?:\+|\(\d{1,4}\)\s?)\d[\d\s().-]{5,18}\d|\b\d{3}[\s.-]\d{3,4}[\s.-]\d{3,4}\b/g;

export function redactText(value: string): string {
  return storableText(value).replace(EMAIL, REDACTED).replace(PHONE, REDACTED);
}

export function containsPersonalData(value: string): boolean {
  return redactText(value) !== value;
}

export type PropertyValue = string | number | boolean | null;

export function redactProperties(properties: Record<string, PropertyValue>): Record<string, PropertyValue> {
  const out: Record<string, PropertyValue> = {};
  for (const [key, value] of Object.entries(properties)) {
    out[storableText(key)] = typeof value === 'string' ? redactText(value) : value;
  }
  return out;
}

/** Redacts query-string values of a URL; leaves the rest as it was. Not a URL → redacted as text. */
export function redactUrl(sent: string): string {
  const raw = storableText(sent);
  const queryStart = raw.indexOf('?');
  if (queryStart === -1) return raw;
  const hashStart = raw.indexOf('#', queryStart);
  const query = raw.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart);
  const hash = hashStart === -1 ? '' : raw.slice(hashStart);
  const cleaned = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      let value = pair.slice(equals + 1);
      try {
        value = decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        // Keep the raw text when it is not valid percent-encoding.
      }
      return containsPersonalData(value) ? `${pair.slice(0, equals)}=${encodeURIComponent(REDACTED)}` : pair;
    })
    .join('&');
  return `${raw.slice(0, queryStart)}?${cleaned}${hash}`;
}
