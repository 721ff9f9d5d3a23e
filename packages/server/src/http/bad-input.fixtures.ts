/**
 * Test support for bad-input.test.ts: the parts of the OpenAPI document's JSON Schemas it reads,
 * and the pure helpers that turn a schema into wrong values.
 */
export interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: JsonSchema;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}
export interface Parameter {
  in: 'path' | 'query';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
export interface Operation {
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
}
export type Source = 'body' | 'query' | 'path';
export type Query = Record<string, string | string[]>;
/** One malformed request: what it changes in an otherwise valid one, and the field it breaks. */
export interface Case {
  name: string;
  source: Source;
  field?: string;
  path?: () => Record<string, string>;
  query?: () => Query;
  body?: () => unknown;
}

export const objectPart = (schema: JsonSchema) => schema.anyOf?.find((s) => s.type === 'object') ?? schema;
export const typesOf = (schema: JsonSchema): string[] =>
  [schema.type ?? [], ...(schema.anyOf ?? []).map((s) => s.type ?? [])]
    .flat()
    .map((type) => (type === 'integer' ? 'number' : type));
export const jsonType = (value: unknown) =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;

/** Values just outside a schema: instants PostgreSQL cannot store, numbers past their bounds. */
export function outOfRange(schema: JsonSchema): [string, unknown][] {
  const values: [string, unknown][] = [];
  if ([schema, ...(schema.anyOf ?? [])].some((s) => s.format === 'date-time')) {
    values.push(['in the year 0000', '0000-06-01T00:00:00Z'], ['past 9999', '9999-12-31T23:59:59-23:59']);
  }
  if (schema.minimum !== undefined) values.push(['below the minimum', schema.minimum - 1]);
  if (schema.maximum !== undefined) values.push(['above the maximum', schema.maximum + 1]);
  return values;
}

/** Every field of an object schema, descending into the first item of arrays of objects. */
export function* fieldsOf(
  schema: JsonSchema,
  at: (string | number)[] = [],
): Generator<[(string | number)[], JsonSchema, boolean]> {
  for (const [name, field] of Object.entries(objectPart(schema).properties ?? {})) {
    yield [[...at, name], field, objectPart(schema).required?.includes(name) ?? false];
    if (field.items?.properties) yield* fieldsOf(field.items, [...at, name, 0]);
  }
}

/** A copy of `body` with the field at `path` set to `value` (left out of the JSON when undefined). */
export function edit(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1) as string | number] = value;
  return copy;
}
