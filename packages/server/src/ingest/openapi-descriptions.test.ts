/**
 * Every property of the ingest bodies and the visitor rows has a description in the OpenAPI
 * document, so a field such as `ref` (the referrer) or `entry.ref` (the `?ref=` parameter) is never
 * left to guesswork. Scoped to these operations: most of the rest of the document is not described
 * yet, and shared error bodies (`http/schemas.ts`) are left out.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';

interface Schema {
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

/** The path of each property without a description, nested objects, arrays and unions included. */
function undescribed(schema: Schema | undefined, at: string): string[] {
  if (!schema) return [];
  const found: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!property.description) found.push(`${at}.${name}`);
    found.push(...undescribed(property, `${at}.${name}`));
  }
  found.push(...undescribed(schema.items, `${at}[]`));
  for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    found.push(...undescribed(variant, at));
  }
  return found;
}

type Content = { content?: Record<string, { schema: Schema }> };
type Operation = { requestBody?: Content; responses?: Record<string, Content> };

describe('descriptions in the OpenAPI document', () => {
  const t = useTestApp({}, { owner: false });
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    paths = (await t.request({ method: 'GET', url: '/v1/openapi.json' })).json().paths;
  });

  const bodyOf = (method: string, path: string) =>
    paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  const answerOf = (method: string, path: string, status: string) =>
    paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;

  it.each([
    ['the collect body', () => bodyOf('post', '/v1/collect')],
    ['the collect answer', () => answerOf('post', '/v1/collect', '202')],
    ['the server events body', () => bodyOf('post', '/v1/server/events')],
    ['the goal visitors list', () => answerOf('get', '/v1/goals/{name}/visitors', '200')],
    ['the visitor profile', () => answerOf('get', '/v1/visitors/{handle}', '200')],
  ])('describes every property of %s', (_name, schemaOf) => {
    const schema = schemaOf();
    expect(schema?.properties ?? schema?.anyOf ?? schema?.oneOf).toBeDefined();
    expect(undescribed(schema, '')).toEqual([]);
  });
});
