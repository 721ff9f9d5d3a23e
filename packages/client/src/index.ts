export { CLIENT_VERSION, type ClientOptions, createClient, type TouchtrailClient, unwrap } from './client.js';
export { TouchtrailApiError, TouchtrailNetworkError } from './errors.js';
export type { components, operations, paths } from './openapi.js';
export { backoffMs, MAX_RETRY_AFTER_MS, retryAfterMs, wait } from './retry.js';
export {
  API_KEY_SCOPES,
  type ApiKeyScope,
  ATTRIBUTION_MODELS,
  type BodyOf,
  DATE_RANGE_KEYWORDS,
  everyOf,
  FUNNEL_BREAKDOWNS,
  PASSWORD_MIN_LENGTH,
  type QueryOf,
  SHARED_LINK_PASSWORD_MIN_LENGTH,
  STATS_METRICS,
  type StatsQueryBody,
  WEBHOOK_EVENT_TYPES,
} from './vocabulary.js';
