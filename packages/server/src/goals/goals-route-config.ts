/**
 * Route options shared by every goals endpoint (interface §4.1, §8): the goals error area,
 * keys or dashboard sessions, and the rate limits. The group names are shared with the goal
 * visitors report, so all goals endpoints draw on the same budgets.
 */
import type { Scope } from '../access/principal.js';
import type { CredentialKind } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { goalsErrorSchema } from './goals.schemas.js';

const ACCEPTS: readonly CredentialKind[] = ['key', 'session'];
/** Per client address, across every goals endpoint. */
const PER_IP_PER_MINUTE = 600;
const READS_PER_CREDENTIAL_PER_MINUTE = 120;
const WRITES_PER_CREDENTIAL_PER_MINUTE = 60;

const config = (scope: Scope, limits: RouteLimits) =>
  ({
    area: 'goals',
    auth: { accepts: ACCEPTS, scope },
    limits: { perIp: PER_IP_PER_MINUTE, ipGroup: 'goals', ...limits },
  }) as const;

export const GOAL_READ = config('stats:read', {
  perCredential: READS_PER_CREDENTIAL_PER_MINUTE,
  credentialGroup: 'goals-read',
});

export const GOAL_WRITE = config('config:write', {
  perCredential: WRITES_PER_CREDENTIAL_PER_MINUTE,
  credentialGroup: 'goals-write',
});

export const GOAL_ERRORS = {
  400: goalsErrorSchema,
  401: goalsErrorSchema,
  403: goalsErrorSchema,
  404: goalsErrorSchema,
  409: goalsErrorSchema,
  422: goalsErrorSchema,
  429: goalsErrorSchema,
};
