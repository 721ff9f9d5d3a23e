/**
 * The JSON bodies of `/v1` operations, from the types the client generates out of the server's
 * OpenAPI document, so the dashboard's types follow the server instead of drifting from it.
 * Types only: nothing of the client reaches the bundle.
 */
import type { operations } from '@touchtrail/client';

type Operation = keyof operations;
type Responses<Op extends Operation> = operations[Op]['responses'];
/** Each operation has one success status: 200, 201 for a create, 202 for work accepted, or 204. */
type SuccessStatus<Op extends Operation> = Extract<keyof Responses<Op>, 200 | 201 | 202 | 204>;

/** The JSON body `Op` answers with `Status`, by default its success status (200, or 201 for a create). */
export type Answer<
  Op extends Operation,
  Status extends keyof Responses<Op> = SuccessStatus<Op>,
> = Responses<Op>[Status] extends { content: { 'application/json': infer A } } ? A : never;

/** The JSON request body of `Op`. */
export type Body<Op extends Operation> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
