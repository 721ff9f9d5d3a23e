/**
 * What every traffic report route shares: the sites area's error shape, a `stats:read` key or a
 * dashboard session, and one budget of 120 requests a minute per credential across all of them
 * (realtime, polled, has its own).
 */
import type { RouteLimits } from '../http/rate-limit.js';

const STATS_READS: RouteLimits = { perCredential: 120, credentialGroup: 'stats:read' };
const REALTIME_POLLING: RouteLimits = { perCredential: 600, credentialGroup: 'stats:realtime' };

const reportConfig = (limits: RouteLimits) =>
  ({ area: 'sites', auth: { accepts: ['key', 'session'], scope: 'stats:read' }, limits }) as const;

export const STATS_READ_ROUTE = reportConfig(STATS_READS);
export const REALTIME_ROUTE = reportConfig(REALTIME_POLLING);
