/**
 * Lemon Squeezy's own reads of a webhook body's fields, and the shared ones (json-fields.ts) in
 * its wording. Each read names the field's path in its `PayloadError`, so a failed delivery says
 * which field was missing or of the wrong type.
 */
import { PayloadError } from '../processor.js';
import { jsonFieldReaders, type Located, pathOf } from './json-fields.js';

export const { objectAt, stringAt, optionalStringAt } = jsonFieldReaders({
  object: 'is missing or not an object',
  string: 'is missing or not a string',
  stringOrNull: 'is not a string',
});

/** An amount in cents: Lemon Squeezy documents every amount as a non-negative integer. */
export function centsAt(parent: Located, key: string): number {
  const value = parent.value[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new PayloadError(`${pathOf(parent, key)} is missing or not a non-negative whole number of cents`);
  return value;
}

export function optionalCentsAt(parent: Located, key: string): number | null {
  if (parent.value[key] === undefined || parent.value[key] === null) return null;
  return centsAt(parent, key);
}

/** An id that JSON:API sends as a string and attributes send as a number. */
export function optionalIdAt(parent: Located, key: string): string | null {
  const value = parent.value[key];
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && value.length > 0) return value;
  throw new PayloadError(`${pathOf(parent, key)} is not an id`);
}

export function idAt(parent: Located, key: string): string {
  const id = optionalIdAt(parent, key);
  if (id === null) throw new PayloadError(`${pathOf(parent, key)} is missing`);
  return id;
}

export function dateAt(parent: Located, key: string): Date {
  const date = new Date(stringAt(parent, key));
  if (Number.isNaN(date.getTime())) throw new PayloadError(`${pathOf(parent, key)} is not an ISO 8601 date`);
  return date;
}

export function currencyAt(parent: Located, key: string): string {
  const value = stringAt(parent, key);
  if (!/^[A-Za-z]{3}$/.test(value))
    throw new PayloadError(`${pathOf(parent, key)} is not a three-letter currency code`);
  return value.toUpperCase();
}
