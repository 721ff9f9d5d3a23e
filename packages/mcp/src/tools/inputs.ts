/**
 * Input pieces several tools share. Every closed list of values is checked against the generated
 * API types both ways, so a value the API adds or drops fails `tsc` until the tools follow.
 */
import type { paths } from '@touchtrail/client';
import { z } from 'zod';

type JsonBody<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : never;
type Method = 'get' | 'post' | 'patch' | 'delete';
type OperationOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/**
 * The query parameters and JSON body of an operation, for `satisfies` on the literal a tool
 * builds from its parsed input: a parameter the API renamed, dropped or retyped fails `tsc`
 * (openapi-fetch's own option types are too generic for TypeScript's excess-property check).
 */
export type QueryOf<P extends keyof paths, M extends Method> =
  OperationOf<P, M> extends {
    parameters: { query?: infer Q };
  }
    ? NonNullable<Q>
    : never;
export type BodyOf<P extends keyof paths, M extends Method> = JsonBody<OperationOf<P, M>>;

export type StatsBody = BodyOf<'/v1/stats/query', 'post'>;
type FunnelBody = BodyOf<'/v1/funnels/query', 'post'>;

/** `values` when they are exactly the members of the union `U`, none missing and none extra. */
export const everyOf =
  <U extends string>() =>
  <const V extends readonly [U, ...U[]]>(
    values: V & ([Exclude<U, V[number]>] extends [never] ? unknown : never),
  ) =>
    values;

export const ATTRIBUTION_MODELS = everyOf<NonNullable<StatsBody['attribution_model']>>()([
  'first_touch',
  'last_touch',
  'linear',
  'time_decay',
]);

export const DATE_RANGE_KEYWORDS = everyOf<Extract<StatsBody['date_range'], string>>()([
  'day',
  '7d',
  '30d',
  'month',
  '12mo',
  'year',
  'all',
]);

export const FUNNEL_BREAKDOWNS = everyOf<NonNullable<FunnelBody['breakdown']>>()([
  'visit:channel',
  'visit:ai_source',
]);

export const siteId = z
  .string()
  .regex(/^ttid_[0-9A-Za-z]{22}$/, 'must be a snippet key: ttid_ and 22 letters or digits')
  .describe('The site’s snippet key (ttid_…), as list_sites shows it');

export const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day, YYYY-MM-DD');

export const timezone = z
  .string()
  .max(64)
  .optional()
  .describe('IANA time zone the days are read in; default UTC');

export const attributionModel = z
  .enum(ATTRIBUTION_MODELS)
  .optional()
  .describe(
    'How credit for conversions and revenue is shared among a person’s visits; default the site’s setting',
  );

/** The stats query's filter list, e.g. `[["is","visit:channel",["ai"]]]`. */
export const filters = z
  .array(z.unknown())
  .max(50)
  .optional()
  .describe(
    'Filters on the visit, all must hold: `[operator, dimension, values]` with operator `is`, `is_not`, ' +
      '`contains` or `matches` (`*` wildcard), e.g. [["is","visit:channel",["ai"]]] or ' +
      '[["is","visit:ai_source",["chatgpt"]]]; groups `["and",[…]]`, `["or",[…]]`, `["not",f]`',
  );

/** The query string's spelling of a boolean. */
export const queryFlag = (value: boolean | undefined) =>
  value === undefined ? undefined : value ? ('true' as const) : ('false' as const);

/** A filter list as the query string carries it: JSON text. */
export const filterText = (value: unknown[] | undefined) =>
  value === undefined ? undefined : JSON.stringify(value);
