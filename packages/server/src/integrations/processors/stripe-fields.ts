/**
 * Reading fields of a verified Stripe event body, where every value is `unknown` until checked.
 * A required field that is missing or of the wrong type is a `PayloadError` naming its path;
 * `null` is accepted wherever Stripe's API reference marks the field nullable.
 */
import { PayloadError } from '../processor.js';

export type JsonObject = Record<string, unknown>;

/** A JSON object found at `path` in the event body, for messages that name the field. */
export interface Located {
  value: JsonObject;
  path: string;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wrongField(path: string, expected: string): PayloadError {
  return new PayloadError(`${path} must be ${expected}`);
}

export function objectAt(parent: Located, key: string): Located {
  const value = parent.value[key];
  const path = `${parent.path}.${key}`;
  if (!isJsonObject(value)) throw wrongField(path, 'an object');
  return { value, path };
}

export function optionalObjectAt(parent: Located, key: string): Located | null {
  const value = parent.value[key];
  if (value === undefined || value === null) return null;
  return objectAt(parent, key);
}

export function stringAt(parent: Located, key: string): string {
  const value = parent.value[key];
  if (typeof value !== 'string' || value.length === 0)
    throw wrongField(`${parent.path}.${key}`, 'a non-empty string');
  return value;
}

export function optionalStringAt(parent: Located, key: string): string | null {
  const value = parent.value[key];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw wrongField(`${parent.path}.${key}`, 'a string or null');
  return value;
}

/** Stripe amounts and timestamps are non-negative integers. */
export function integerAt(parent: Located, key: string): number {
  const value = parent.value[key];
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw wrongField(`${parent.path}.${key}`, 'a non-negative integer');
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
  if (isJsonObject(value)) return stringAt({ value, path: `${parent.path}.${key}` }, 'id');
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
