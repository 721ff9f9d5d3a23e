/**
 * Stripe's own reads of a verified event body, and the shared ones (json-fields.ts) in Stripe's
 * wording: a required field that is missing or of the wrong type is a `PayloadError` naming its
 * path; `null` is accepted wherever Stripe's API reference marks the field nullable.
 */
import { PayloadError } from '../processor.js';
import { isJsonObject, jsonFieldReaders, type Located, pathOf } from './json-fields.js';

export const { objectAt, optionalObjectAt, stringAt, optionalStringAt } = jsonFieldReaders({
  object: 'must be an object',
  string: 'must be a non-empty string',
  stringOrNull: 'must be a string or null',
});

function wrongField(path: string, expected: string): PayloadError {
  return new PayloadError(`${path} must be ${expected}`);
}

/** Stripe amounts and timestamps are non-negative integers. */
export function integerAt(parent: Located, key: string): number {
  const value = parent.value[key];
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw wrongField(pathOf(parent, key), 'a non-negative integer');
  return value as number;
}

export function optionalIntegerAt(parent: Located, key: string): number | null {
  const value = parent.value[key];
  if (value === undefined || value === null) return null;
  return integerAt(parent, key);
}

/**
 * An expandable reference (Stripe's API reference: "string | expandable"): the id as sent in
 * webhooks, or the `id` of the object when it was expanded.
 */
export function optionalIdAt(parent: Located, key: string): string | null {
  const value = parent.value[key];
  if (isJsonObject(value)) return stringAt({ value, path: pathOf(parent, key) }, 'id');
  return optionalStringAt(parent, key);
}

/** A Unix timestamp in seconds as a Date. */
export function dateAt(parent: Located, key: string): Date {
  return new Date(integerAt(parent, key) * 1000);
}

/** `touchtrail_visitor_id` from a metadata object (Stripe metadata values are strings). */
export function visitorIdIn(parent: Located, metadataKey = 'metadata'): string | null {
  const metadata = optionalObjectAt(parent, metadataKey);
  return metadata ? optionalStringAt(metadata, 'touchtrail_visitor_id') : null;
}

/** The objects of a Stripe list (`{object: "list", data: [...]}`) at `key`; none when absent. */
export function listEntriesAt(parent: Located, key: string): Located[] {
  const list = optionalObjectAt(parent, key);
  if (!list) return [];
  const data = list.value.data;
  if (!Array.isArray(data)) throw wrongField(`${list.path}.data`, 'an array');
  return data.map((value, index) => {
    const path = `${list.path}.data[${index}]`;
    if (!isJsonObject(value)) throw wrongField(path, 'an object');
    return { value, path };
  });
}
