/** Whether a page step matches a pageview's stored path, as the stats filters compare. */
import { type RawBuilder, sql } from 'kysely';
import { containsPattern, matchesPattern } from '../reporting/like-pattern.js';
import type { PageStep } from './funnel-steps.js';

/** `is` exactly, `contains` in any case, `matches` with `*` wildcards. */
export function pathMatches(step: PageStep, path: RawBuilder<unknown>): RawBuilder<boolean> {
  switch (step.match) {
    case 'is':
      return sql<boolean>`${path} = ${step.value}`;
    case 'contains':
      return sql<boolean>`${path} ilike ${containsPattern(step.value)}`;
    case 'matches':
      return sql<boolean>`${path} like ${matchesPattern(step.value)}`;
  }
}
