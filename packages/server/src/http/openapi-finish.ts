/**
 * The last pass over the whole OpenAPI document: adds the areas' error components, gives every
 * response without a description its status's plain meaning instead of @fastify/swagger's
 * "Default Response", and drops the ±(2^53 − 1) bounds zod writes for every `.int()`, which
 * say nothing a reader or a generated client can use.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { errorComponentSchemas } from './openapi-components.js';
import { unpackExamples } from './openapi-examples.js';

type TransformObject = NonNullable<FastifyDynamicSwaggerOptions['transformObject']>;
type Json = Record<string, unknown>;

const SWAGGER_PLACEHOLDER = 'Default Response';

const PLAIN_MEANINGS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '302': 'Redirect',
  '400': 'Bad request',
  '401': 'Not authenticated',
  '403': 'Forbidden',
  '404': 'Not found',
  '409': 'Conflict',
  '410': 'Gone',
  '413': 'Body too large',
  '415': 'Unsupported content type',
  '422': 'Validation failed',
  '429': 'Too many requests',
  '500': 'Internal error',
  '503': 'Unavailable; retry',
};

export const plainMeaning = (status: string) => PLAIN_MEANINGS[status] ?? STATUS_CODES[status] ?? 'Response';

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropSafeIntegerBounds(item);
    return;
  }
  if (!isObject(node)) return;
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  for (const value of Object.values(node)) dropSafeIntegerBounds(value);
}

function finishResponses(responses: Json): void {
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response)) continue;
    if (!response.description || response.description === SWAGGER_PLACEHOLDER) {
      response.description = plainMeaning(status);
    }
    unpackExamples(response.content);
    // A component reference carries the response's description beside it; it belongs one level up.
    for (const media of Object.values(isObject(response.content) ? response.content : {})) {
      const schema = isObject(media) ? media.schema : undefined;
      if (isObject(schema) && schema.$ref && Object.keys(schema).length === 2 && 'description' in schema) {
        delete schema.description;
      }
    }
  }
}

export const finishDocument: TransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as Json & { components?: Json; paths?: Json };
  const components = { ...document.components, schemas: { ...(document.components?.schemas as Json) } };
  Object.assign(components.schemas, errorComponentSchemas());
  // Touchtrail's own posts to webhook endpoints are signed (their headers say how), not authenticated.
  for (const pathItem of Object.values(isObject(document.webhooks) ? document.webhooks : {})) {
    for (const operation of Object.values(isObject(pathItem) ? pathItem : {})) {
      if (isObject(operation)) operation.security ??= [];
    }
  }
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(isObject(pathItem) ? pathItem : {})) {
      if (!isObject(operation)) continue;
      if (isObject(operation.requestBody)) unpackExamples(operation.requestBody.content);
      if (isObject(operation.responses)) finishResponses(operation.responses);
    }
  }
  const finished = { ...document, components };
  dropSafeIntegerBounds(finished);
  // Built from plain JSON objects; the OpenAPI typings cannot follow the walk above.
  return finished as ReturnType<TransformObject>;
};
