/**
 * Reading fields of a Polar payload by path, with a `PayloadError` that names the field when one
 * this event needs is missing or of the wrong type. Extra fields are ignored.
 */
import { PayloadError } from '../processor.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectAt(parent: JsonObject, key: string, path: string): JsonObject {
  const value = parent[key];
  if (!isObject(value)) throw new PayloadError(`${path}.${key} must be an object`);
  return value;
}

/** An object that Polar documents as nullable: null when absent or null. */
export function nullableObjectAt(parent: JsonObject, key: string, path: string): JsonObject | null {
  const value = parent[key];
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw new PayloadError(`${path}.${key} must be an object or null`);
  return value;
}

export function stringAt(parent: JsonObject, key: string, path: string): string {
  const value = parent[key];
  if (typeof value !== 'string' || value.length === 0)
    throw new PayloadError(`${path}.${key} must be a non-empty string`);
  return value;
}

export function nullableStringAt(parent: JsonObject, key: string, path: string): string | null {
  const value = parent[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new PayloadError(`${path}.${key} must be a string or null`);
  return value.length > 0 ? value : null;
}

/** Amounts in Polar are integers of the currency's smallest unit ("Amount in cents"). */
export function amountAt(parent: JsonObject, key: string, path: string): number {
  const value = parent[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new PayloadError(`${path}.${key} must be a whole number of cents`);
  return value;
}

export function dateAt(parent: JsonObject, key: string, path: string): Date {
  const value = parent[key];
  const date = typeof value === 'string' ? new Date(value) : null;
  if (date === null || Number.isNaN(date.getTime()))
    throw new PayloadError(`${path}.${key} must be an ISO 8601 date-time`);
  return date;
}

/** A metadata value Polar allows (string, number, boolean); only a non-empty string counts. */
export function metadataString(metadata: JsonObject | null, key: string): string | null {
  const value = metadata?.[key];
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : null;
}
