/**
 * What every traffic report route shares: the sites area's error shape, a `stats:read` key or a
 * dashboard session, and one budget of 120 requests a minute per credential across all of them
 * (realtime, polled, has its own). The stats query and realtime also take a shared link's access
 * token (shared-links/): the public view of a site reads those two and nothing else.
 */
import type { CredentialKind } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { codedErrorSchema } from '../http/schemas.js';

const STATS_READS: RouteLimits = { perCredential: 120, credentialGroup: 'stats:read' };
const REALTIME_POLLING: RouteLimits = { perCredential: 600, credentialGroup: 'stats:realtime' };

const reportConfig = (limits: RouteLimits, accepts: readonly CredentialKind[]) =>
  ({ area: 'sites', auth: { accepts, scope: 'stats:read' }, limits }) as const;

export const STATS_READ_ROUTE = reportConfig(STATS_READS, ['key', 'session']);
export const STATS_QUERY_ROUTE = reportConfig(STATS_READS, ['key', 'session', 'share']);
export const REALTIME_ROUTE = reportConfig(REALTIME_POLLING, ['key', 'session', 'share']);

/** The errors every traffic report answers, in the sites area's shape. */
export const statsErrorSchemas = {
  401: codedErrorSchema,
  403: codedErrorSchema,
  404: codedErrorSchema,
  422: codedErrorSchema,
  429: codedErrorSchema,
  503: codedErrorSchema.describe(
    '`unavailable`: with ClickHouse on, the range starts before the traffic PostgreSQL still holds and ClickHouse could not answer; retry',
  ),
};
