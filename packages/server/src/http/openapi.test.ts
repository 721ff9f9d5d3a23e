/**
 * What a reader or a generated client needs from every operation of the OpenAPI document
 * (so it can be read without the code), and Redocly's `recommended` rules with zero errors (`npm run lint:openapi` runs
 * the same rules over the committed file).
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from './openapi-document.js';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description?: string; content?: Record<string, Media> }>;
}
interface Media {
  schema?: unknown;
  example?: unknown;
  examples?: unknown;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
/** The sentence the document adds to every description (openapi-operation.ts). */
const CREDENTIAL_SENTENCE = /\n*Authentication: [^\n]*$/;

let source = '';
let operations: [string, Operation][] = [];

beforeAll(async () => {
  source = await generateOpenApiDocument();
  const document = JSON.parse(source) as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}, 60_000);

/** The operations failing `check`, by name, so a failure lists every one to fix. */
const failing = (check: (operation: Operation) => boolean) =>
  operations.filter(([, operation]) => !check(operation)).map(([name]) => name);

const hasExample = (media: Media | undefined) =>
  media?.example !== undefined || media?.examples !== undefined;

describe('the OpenAPI document', () => {
  it('gives every operation a unique operationId', () => {
    expect(failing((o) => Boolean(o.operationId))).toEqual([]);
    const ids = operations.map(([, o]) => o.operationId).filter(Boolean);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('gives every operation a summary and a description of its own', () => {
    expect(failing((o) => Boolean(o.summary?.trim()))).toEqual([]);
    expect(failing((o) => Boolean(o.description?.replace(CREDENTIAL_SENTENCE, '').trim()))).toEqual([]);
  });

  it('declares the credentials of every operation, an empty list for public ones', () => {
    expect(failing((o) => Array.isArray(o.security))).toEqual([]);
    const security = (name: string) => operations.find(([n]) => n === name)?.[1].security;
    expect(security('POST /v1/collect')).toEqual([]);
    expect(security('POST /v1/crawler/hits')).toEqual([{ botToken: [] }]);
    expect(security('POST /v1/stats/query')).toEqual([
      { apiKey: ['stats:read'] },
      { session: [] },
      { sharedLink: [] },
    ]);
  });

  it('lists the standard errors as the area’s named component', () => {
    const listGoals = operations.find(([n]) => n === 'GET /v1/goals')?.[1];
    for (const status of ['401', '403', '422', '429']) {
      expect(listGoals?.responses[status]?.content?.['application/json']?.schema, status).toEqual({
        $ref: '#/components/schemas/GoalsError',
      });
    }
    const createSite = operations.find(([n]) => n === 'POST /v1/sites')?.[1];
    expect(createSite?.responses['400']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/SitesError',
    });
  });

  it('names the readiness 503 body as a component like every other error', () => {
    const readiness = operations.find(([n]) => n === 'GET /readyz')?.[1];
    expect(readiness?.responses['503']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/NotReady',
    });
  });

  it('has an example on every JSON request body and every 2xx JSON response', () => {
    const bodies = failing((o) => {
      const json = o.requestBody?.content['application/json'];
      return !json || hasExample(json);
    });
    const answers = failing((o) =>
      Object.entries(o.responses).every(([status, response]) => {
        const json = response.content?.['application/json'];
        return !status.startsWith('2') || !json || hasExample(json);
      }),
    );
    expect({ bodies, answers }).toEqual({ bodies: [], answers: [] });
  });

  it('describes every response, without placeholders or meaningless integer bounds', () => {
    expect(source).not.toContain('Default Response');
    expect(failing((o) => Object.values(o.responses).every((r) => Boolean(r.description)))).toEqual([]);
    expect(source).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('leaves goal reorder out (interface §4.1)', () => {
    expect(operations.map(([name]) => name).filter((name) => name.includes('reorder'))).toEqual([]);
  });

  it('passes Redocly’s recommended rules, examples checked against their schemas, without an error', async () => {
    // The rules of scripts/lint-openapi.mjs.
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        'no-invalid-media-type-examples': 'error',
        'no-invalid-parameter-examples': 'error',
        'no-invalid-schema-examples': 'error',
      },
    });
    const problems = await lintFromString({ source, absoluteRef: '/openapi.json', config });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(errors).toEqual([]);
  });
});
