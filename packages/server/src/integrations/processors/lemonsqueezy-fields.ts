/**
 * Typed reads of fields in a Lemon Squeezy webhook body. Each read names the field's path in
 * its `PayloadError`, so a failed delivery says which field was missing or of the wrong type.
 */
import { PayloadError } from '../processor.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectAt(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw new PayloadError(`${path} is missing or not an object`);
  return value;
}

export function stringAt(object: JsonObject, key: string, path: string): string {
  const value = object[key];
  if (typeof value !== 'string' || value.length === 0)
    throw new PayloadError(`${path}.${key} is missing or not a string`);
  return value;
}

export function optionalStringAt(object: JsonObject, key: string, path: string): string | null {
  const value = object[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new PayloadError(`${path}.${key} is not a string`);
  return value;
}

/** An amount in cents: Lemon Squeezy documents every amount as a non-negative integer. */
export function centsAt(object: JsonObject, key: string, path: string): number {
  const value = object[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new PayloadError(`${path}.${key} is missing or not a non-negative whole number of cents`);
  return value;
}

export function optionalCentsAt(object: JsonObject, key: string, path: string): number | null {
  if (object[key] === undefined || object[key] === null) return null;
  return centsAt(object, key, path);
}

/** An id that JSON:API sends as a string and attributes send as a number. */
export function optionalIdAt(object: JsonObject, key: string, path: string): string | null {
  const value = object[key];
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && value.length > 0) return value;
  throw new PayloadError(`${path}.${key} is not an id`);
}

export function idAt(object: JsonObject, key: string, path: string): string {
  const id = optionalIdAt(object, key, path);
  if (id === null) throw new PayloadError(`${path}.${key} is missing`);
  return id;
}

export function dateAt(object: JsonObject, key: string, path: string): Date {
  const date = new Date(stringAt(object, key, path));
  if (Number.isNaN(date.getTime())) throw new PayloadError(`${path}.${key} is not an ISO 8601 date`);
  return date;
}

export function currencyAt(object: JsonObject, key: string, path: string): string {
  const value = stringAt(object, key, path);
  if (!/^[A-Za-z]{3}$/.test(value))
    throw new PayloadError(`${path}.${key} is not a three-letter currency code`);
  return value.toUpperCase();
}
