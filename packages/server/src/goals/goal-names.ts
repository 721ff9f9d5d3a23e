/** The rules for goal (event) names, shared by ingest and the goals registry. */

export const GOAL_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
export const GOAL_NAME_MAX = 64;
/** Distinct names a site may register automatically, and active goals it may hold. */
export const GOALS_PER_SITE = 200;

/** The names of payments' conversion events (payments/payment-write.ts): reserved, nothing else sends them. */
export const PAYMENT_EVENT_NAMES = ['payment', 'trial'] as const;

/** Names the product itself uses; never goals (DESIGN.md §4). */
export const RESERVED_EVENT_NAMES = [
  'pageview',
  'engagement',
  'identify',
  ...PAYMENT_EVENT_NAMES,
  'refund',
] as const;
/** Event names starting with this are the product's own, never goals. */
export const RESERVED_PREFIX = 'touchtrail_';

export function isReservedEventName(name: string): boolean {
  return (RESERVED_EVENT_NAMES as readonly string[]).includes(name) || name.startsWith(RESERVED_PREFIX);
}

/** Why a name cannot be a goal, or null when it can. */
export function goalNameProblem(name: string): string | null {
  if (name.length < 1 || name.length > GOAL_NAME_MAX) return `must be 1 to ${GOAL_NAME_MAX} characters`;
  if (!GOAL_NAME_PATTERN.test(name)) return 'must match ^[a-z][a-z0-9_]*$';
  if (isReservedEventName(name)) return 'is a reserved name';
  return null;
}
