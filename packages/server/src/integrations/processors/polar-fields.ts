/**
 * Polar's own reads of a payload's fields, and the shared ones (json-fields.ts) in Polar's
 * wording: a field this event needs that is missing or of the wrong type is a `PayloadError`
 * naming it. Extra fields are ignored.
 */
import { PayloadError } from '../processor.js';
import { type JsonObject, jsonFieldReaders, type Located, pathOf } from './json-fields.js';

/** The optional reads are for fields Polar documents as nullable: absent and null read as null. */
export const { objectAt, optionalObjectAt, stringAt, optionalStringAt } = jsonFieldReaders({
  object: 'must be an object',
  objectOrNull: 'must be an object or null',
  string: 'must be a non-empty string',
  stringOrNull: 'must be a string or null',
});

/** Amounts in Polar are integers of the currency's smallest unit ("Amount in cents"). */
export function amountAt(parent: Located, key: string): number {
  const value = parent.value[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new PayloadError(`${pathOf(parent, key)} must be a whole number of cents`);
  return value;
}

export function dateAt(parent: Located, key: string): Date {
  const value = parent.value[key];
  const date = typeof value === 'string' ? new Date(value) : null;
  if (date === null || Number.isNaN(date.getTime()))
    throw new PayloadError(`${pathOf(parent, key)} must be an ISO 8601 date-time`);
  return date;
}

/** A metadata value Polar allows (string, number, boolean); only a non-empty string counts. */
export function metadataString(metadata: JsonObject | null, key: string): string | null {
  const value = metadata?.[key];
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : null;
}
