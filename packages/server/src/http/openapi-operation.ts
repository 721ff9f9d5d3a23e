/**
 * Fills in each operation from its route's `config`, so routes declare only what is theirs:
 * the credentials it takes (`security`, with the key scope it needs), and the standard error
 * answers every route of its kind can give (bad JSON, validation, 401, 403, 429, 503), each
 * pointing at its area's error component.
 */
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CredentialKind, RouteAuth } from './authenticate.js';
import type { Area } from './error-bodies.js';
import { componentRef, ERROR_COMPONENTS, errorComponentFor } from './openapi-components.js';
import { packExamples } from './openapi-examples.js';
import type { RouteLimits } from './rate-limit.js';

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;
type JsonSchema = Record<string, unknown>;

const SCHEME_OF: Record<CredentialKind, string> = { key: 'apiKey', session: 'session', share: 'sharedLink' };
const CREDENTIAL_NAME: Record<CredentialKind, string> = {
  key: 'an API key',
  session: 'a dashboard session',
  share: "a shared link's access token",
};

/**
 * Routes that check a credential of their own instead of `config.auth`; `inProcess` when the
 * check needs no database (so no 503 for a failed check).
 */
const OWN_CREDENTIALS: Record<string, { scheme: string; name: string; inProcess?: boolean }> = {
  'POST /v1/crawler/hits': { scheme: 'botToken', name: 'a bot token' },
  'GET /metrics': {
    scheme: 'metricsToken',
    name: 'none from the loopback; elsewhere the `METRICS_TOKEN` bearer token',
    inProcess: true,
  },
};

/** Areas whose body says 503 when the credential check fails; goals and conversions say 500. */
const ANSWERS_503 = new Set<Area>(['account', 'sites', 'ingest', 'webhooks', 'payments']);
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface RouteFacts {
  area: Area;
  auth?: RouteAuth;
  own?: { scheme: string; name: string; inProcess?: boolean };
  isUnsafe: boolean;
  hasLimits: boolean;
  hasBody: boolean;
  inputs: string[];
}

function factsOf(route: Parameters<Transform>[0]['route'], schema: JsonSchema): RouteFacts {
  const config = (route.config ?? {}) as { area?: Area; auth?: RouteAuth; limits?: RouteLimits | false };
  const method = String(route.method);
  return {
    area: config.area ?? 'account',
    auth: config.auth,
    own: OWN_CREDENTIALS[`${method} ${route.url}`],
    isUnsafe: UNSAFE_METHODS.has(method),
    hasLimits: config.limits !== false,
    hasBody: Boolean(schema.body),
    inputs: [schema.querystring && 'query', schema.params && 'path'].filter((part): part is string =>
      Boolean(part),
    ),
  };
}

function securityOf(facts: RouteFacts): Record<string, string[]>[] {
  if (facts.own) return [{ [facts.own.scheme]: [] }];
  if (!facts.auth) return [];
  const { accepts, scope } = facts.auth;
  // OpenAPI 3.1 lets a non-OAuth requirement list role names: the key's scope goes there.
  return accepts.map((kind) => ({ [SCHEME_OF[kind]]: kind === 'key' && scope ? [scope] : [] }));
}

/** One sentence naming who may call the operation, appended to its description. */
export function credentialSentence(facts: RouteFacts): string {
  if (facts.own) return `Authentication: ${facts.own.name}.`;
  if (!facts.auth) return 'Authentication: none (public).';
  const names = facts.auth.accepts.map((kind) =>
    kind === 'key' && facts.auth?.scope ? `an API key with \`${facts.auth.scope}\`` : CREDENTIAL_NAME[kind],
  );
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
  return `Authentication: ${list}.`;
}

/** The standard answers the route can give, with a one-line description each. */
function standardErrors(facts: RouteFacts): Map<number, string> {
  const reasons = new Map<number, string[]>();
  const add = (status: number, reason: string) =>
    reasons.set(status, [...(reasons.get(status) ?? []), reason]);
  const { area, auth } = facts;
  if (facts.hasBody) {
    add(area === 'webhooks' || area === 'conversions' ? 422 : 400, 'the body is not valid JSON');
    // Goals refuses a bad body with 400 and a bad query or path with 422 (§7.1).
    add(area === 'goals' ? 400 : 422, 'a field of the body fails validation');
  }
  if (facts.inputs.length > 0) add(422, `a ${facts.inputs.join(' or ')} parameter fails validation`);
  const isAuthenticated = Boolean(auth || facts.own);
  if (isAuthenticated) add(401, 'no credential, or one that is unknown, revoked, expired or not taken here');
  if (auth?.scope && auth.accepts.includes('key')) {
    // Payments answers a key without the scope with 401 (§5.6).
    add(area === 'payments' ? 401 : 403, `the API key lacks \`${auth.scope}\``);
  }
  if (auth?.accepts.includes('session') && facts.isUnsafe) add(403, 'a session request from another origin');
  if (facts.hasLimits) add(429, 'too many requests; retry after the seconds in `Retry-After`');
  if (isAuthenticated && !facts.own?.inProcess && ANSWERS_503.has(area)) {
    add(503, 'the credential could not be checked (the database is unavailable); retry');
  }
  const sentence = (parts: string[]) => {
    const text = parts.join('; or ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  };
  return new Map([...reasons].map(([status, parts]) => [status, sentence(parts)]));
}

/**
 * zod leaves `examples` out of a request schema that transforms its input (an email it lower-
 * cases, a number read from a query string), since an example could be of the output type.
 * Ours are request examples that parse (the examples' own tests), so they are put back, on the
 * schema and on each of its fields.
 */
function restoreInputExamples(zodSchema: unknown, json: JsonSchema | undefined): JsonSchema | undefined {
  if (!(zodSchema instanceof z.ZodType) || !json) return json;
  const restored = { ...json };
  const examples = z.globalRegistry.get(zodSchema)?.examples;
  if (examples && restored.examples === undefined && restored.$ref === undefined)
    restored.examples = examples;
  const properties = restored.properties as Record<string, JsonSchema> | undefined;
  if (zodSchema instanceof z.ZodObject && properties) {
    restored.properties = Object.fromEntries(
      Object.entries(properties).map(([key, property]) => [
        key,
        restoreInputExamples(zodSchema.shape[key], property) ?? property,
      ]),
    );
  }
  return restored;
}

function describedBy(schema: unknown): string | undefined {
  return schema instanceof z.ZodType ? z.globalRegistry.get(schema)?.description : undefined;
}

/**
 * `base` (zod to JSON schema; a route's own `swaggerTransform` when it has one), then the
 * route's security, standard errors and error components.
 */
export const describeOperationWith =
  (base: Transform): Transform =>
  (input) => {
    const transformed = base(input) as { schema: JsonSchema; url: string };
    if (transformed.schema.hide) return transformed;
    const zodSchemas = (input.schema ?? {}) as JsonSchema;
    const schema = { ...transformed.schema };
    for (const part of ['body', 'querystring', 'params']) {
      if (schema[part]) schema[part] = restoreInputExamples(zodSchemas[part], schema[part] as JsonSchema);
    }
    if (schema.body) schema.body = packExamples(schema.body as JsonSchema);
    const facts = factsOf(input.route, schema);
    const zodResponses = (zodSchemas.response ?? {}) as Record<string, unknown>;
    const responses = Object.fromEntries(
      Object.entries((schema.response ?? {}) as Record<string, JsonSchema>).map(([status, response]) => [
        status,
        packExamples(response),
      ]),
    );
    const component = ERROR_COMPONENTS[facts.area].name;
    const standard = standardErrors(facts);
    for (const [status, zodSchema] of Object.entries(zodResponses)) {
      const name = Number(status) >= 400 ? errorComponentFor(facts.area, zodSchema) : undefined;
      if (!name) continue;
      const description = describedBy(zodSchema) ?? standard.get(Number(status));
      responses[status] = { $ref: componentRef(name), ...(description ? { description } : {}) };
    }
    for (const [status, description] of standard) {
      responses[String(status)] ??= { $ref: componentRef(component), description };
    }
    const sentence = credentialSentence(facts);
    const description =
      typeof schema.description === 'string' ? `${schema.description}\n\n${sentence}` : sentence;
    return {
      url: transformed.url,
      schema: { ...schema, description, security: securityOf(facts), response: sortedByStatus(responses) },
    };
  };

export const describeOperation = describeOperationWith(jsonSchemaTransform);

function sortedByStatus(responses: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}
