/**
 * The request types of an operation, and the API's closed lists of values as runtime arrays for
 * the command-line client and the tool set. Each list is checked against the generated types
 * both ways, so a value the API adds or drops fails `tsc` until the list follows.
 */
import type { paths } from './openapi.js';

type JsonBody<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;
type Method = 'get' | 'post' | 'patch' | 'delete';
type OperationOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/**
 * The query parameters and JSON body of an operation, for `satisfies` on a literal built from
 * flags or tool input: a parameter the API renamed, dropped or retyped fails `tsc`
 * (openapi-fetch's own option types are too generic for TypeScript's excess-property check).
 */
export type QueryOf<P extends keyof paths, M extends Method> =
  OperationOf<P, M> extends {
    parameters: { query?: infer Q };
  }
    ? NonNullable<Q>
    : never;
export type BodyOf<P extends keyof paths, M extends Method> = JsonBody<OperationOf<P, M>>;

export type StatsQueryBody = BodyOf<'/v1/stats/query', 'post'>;
type FunnelQueryBody = BodyOf<'/v1/funnels/query', 'post'>;

/** `values` when they are exactly the members of the union `U`, none missing and none extra. */
export const everyOf =
  <U extends string>() =>
  <const V extends readonly [U, ...U[]]>(
    values: V & ([Exclude<U, V[number]>] extends [never] ? unknown : never),
  ) =>
    values;

export const STATS_METRICS = everyOf<StatsQueryBody['metrics'][number]>()([
  'visitors',
  'visits',
  'pageviews',
  'views_per_visit',
  'bounce_rate',
  'visit_duration',
  'events',
  'conversions',
  'conversion_rate',
  'goal_value',
  'revenue_net',
  'revenue_refunded',
]);

export const ATTRIBUTION_MODELS = everyOf<NonNullable<StatsQueryBody['attribution_model']>>()([
  'first_touch',
  'last_touch',
  'linear',
  'time_decay',
]);

export const DATE_RANGE_KEYWORDS = everyOf<Extract<StatsQueryBody['date_range'], string>>()([
  'day',
  '7d',
  '30d',
  'month',
  '12mo',
  'year',
  'all',
]);

export const FUNNEL_BREAKDOWNS = everyOf<NonNullable<FunnelQueryBody['breakdown']>>()([
  'visit:channel',
  'visit:ai_source',
]);

type WebhookBody = BodyOf<'/v1/sites/{siteId}/webhooks', 'post'>;

export const WEBHOOK_EVENT_TYPES = everyOf<NonNullable<WebhookBody['event_types']>[number]>()([
  'ai_session.classified',
  'conversion.attributed',
  'conversion.refunded',
]);

/** A permission an API key can hold; the server's list (access/principal.ts) is the one source. */
export type ApiKeyScope = BodyOf<'/v1/account/keys', 'post'>['scopes'][number];

export const API_KEY_SCOPES = everyOf<ApiKeyScope>()([
  'stats:read',
  'config:write',
  'credentials:write',
  'ingest:write',
]);

/**
 * The shortest password an account takes (setup, invitation, reset, change) and the shortest a
 * shared link takes. The server's schemas are the owner; test/password-rules.test.ts checks these
 * against the `minLength` they publish in openapi.json, for forms that say so before sending.
 */
export const PASSWORD_MIN_LENGTH = 10;
export const SHARED_LINK_PASSWORD_MIN_LENGTH = 8;
