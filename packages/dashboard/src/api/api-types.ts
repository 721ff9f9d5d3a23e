/**
 * The JSON bodies of `/v1` operations, from the types the client generates out of the server's
 * OpenAPI document, so the dashboard's types follow the server instead of drifting from it.
 * Types only: nothing of the client reaches the bundle.
 */
import type { operations } from '@touchtrail/client';
import type { FetchResponse } from 'openapi-fetch';

type Operation = keyof operations;

/**
 * The success body of `Op` as the typed client hands it over (`api` in http.ts): openapi-fetch
 * reads tuples as arrays and leaves out fields that are always null, so the names here must come
 * from it, not straight from `operations`, for a call's answer to fit them.
 */
export type Answer<Op extends Operation> = NonNullable<
  FetchResponse<operations[Op], unknown, `${string}/${string}`>['data']
>;

/** The JSON request body of `Op`. */
export type Body<Op extends Operation> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
