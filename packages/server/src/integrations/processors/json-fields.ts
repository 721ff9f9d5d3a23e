/**
 * Typed reads of fields in a processor's parsed webhook body, where every value is `unknown`
 * until checked. A field that is missing or of the wrong type is a `PayloadError` naming its
 * path, in the wording of the processor that reads it: the processors word these differently.
 */
import { PayloadError } from '../processor.js';

export type JsonObject = Record<string, unknown>;

/** A JSON object found in the body, with its path for messages (`''` for the body itself). */
export interface Located {
  value: JsonObject;
  path: string;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path of `key` in `parent`: `data.id`, or `id` at the top of the body. */
export function pathOf(parent: Located, key: string): string {
  return parent.path === '' ? key : `${parent.path}.${key}`;
}

/** What a processor's messages say after the field's path, per kind of read. */
export interface FieldWording {
  object: string;
  /** A nullable object that is something else; the `object` wording when not given. */
  objectOrNull?: string;
  /** A required string that is missing, empty or not a string. */
  string: string;
  /** A nullable string that is something else. */
  stringOrNull: string;
}

/** The reads every processor shares, worded as that processor words them. */
export function jsonFieldReaders(wording: FieldWording) {
  const wrong = (parent: Located, key: string, problem: string) =>
    new PayloadError(`${pathOf(parent, key)} ${problem}`);

  function objectAt(parent: Located, key: string): Located {
    const value = parent.value[key];
    if (!isJsonObject(value)) throw wrong(parent, key, wording.object);
    return { value, path: pathOf(parent, key) };
  }

  /** Null when absent or null. */
  function optionalObjectAt(parent: Located, key: string): Located | null {
    const value = parent.value[key];
    if (value === undefined || value === null) return null;
    if (!isJsonObject(value)) throw wrong(parent, key, wording.objectOrNull ?? wording.object);
    return { value, path: pathOf(parent, key) };
  }

  function stringAt(parent: Located, key: string): string {
    const value = parent.value[key];
    if (typeof value !== 'string' || value === '') throw wrong(parent, key, wording.string);
    return value;
  }

  /** Null when absent, null or empty. */
  function optionalStringAt(parent: Located, key: string): string | null {
    const value = parent.value[key];
    if (value === undefined || value === null || value === '') return null;
    if (typeof value !== 'string') throw wrong(parent, key, wording.stringOrNull);
    return value;
  }

  return { objectAt, optionalObjectAt, stringAt, optionalStringAt };
}
