/** `@touchtrail/node`: send conversion events and payments to Touchtrail from your server. */
export { type ClientErrorCode, TouchtrailError, type TouchtrailErrorDetails } from './client/errors.js';
export { Touchtrail } from './client/touchtrail.js';
export type {
  EventInput,
  EventProperties,
  EventResult,
  PaymentInput,
  PaymentResult,
  RequestOptions,
  TouchtrailOptions,
} from './client/types.js';
export { SDK_VERSION } from './client/version.js';
