/**
 * The drops of the route steps (pipeline.ts: `limit_rate`, `parse`, and a server event's
 * `check_time`): a request refused before or while its item was made. The service counts the
 * rest itself, so the errors it throws (unknown site, site deleted, database down) are left out.
 */
import { toAppError } from '../http/error-handler.js';
import type { ErrorCode } from '../http/errors.js';
import type { IngestService } from './ingest.service.js';
import type { DropReason } from './pipeline.js';

const REASON_OF_CODE: Partial<Record<ErrorCode, DropReason>> = {
  rate_limited: 'rate_limited',
  payload_too_large: 'too_large',
  validation_failed: 'invalid',
  invalid_json: 'invalid',
  unsupported_media_type: 'invalid',
};

/** A route's `onError` hook that counts its refused requests as dropped items. */
export function countRefusedRequests(ingest: IngestService) {
  return (_request: unknown, _reply: unknown, error: unknown, done: () => void) => {
    const reason = REASON_OF_CODE[toAppError(error).code];
    if (reason) ingest.refused(reason);
    done();
  };
}
