/**
 * The path of a pageview's URL for reports that read every pageview of a range (funnels): the
 * same answer as `urlPath` (stats/visit-columns.ts) at a fraction of its cost, because the
 * regular expression there is the most expensive thing such a scan does (several times the
 * scan itself). URLs starting `http://` or `https://` (all that ingest stores, bar capitals) take
 * string functions; anything else falls back to `urlPath`. funnels.test.ts checks both agree.
 */
import { type RawBuilder, sql } from 'kysely';
import { containsPattern, matchesPattern } from '../stats/like-pattern.js';
import { urlPath } from '../stats/visit-columns.js';
import type { PageStep } from './funnel-steps.js';

/**
 * Columns `is_http` and `rest` (the URL after `://`, cut at the first `?` or `#`) of `url`; the
 * caller computes them once per row (a subquery with `offset 0`) and then `pathFrom` them.
 */
export function pathParts(url: RawBuilder<unknown>) {
  // LIKE, not lower(): lower-casing every URL costs as much as the rest of the path. A URL whose
  // scheme is spelt in capitals takes the slow way.
  return sql`(${url} like 'https://%' or ${url} like 'http://%') as is_http,
    split_part(split_part(substr(${url}, strpos(${url}, '://') + 3), '?', 1), '#', 1) as rest`;
}

/** The path from `pathParts`: from the first `/` after the host, '/' when there is none. */
export function pathFrom(row: string, url: RawBuilder<string>): RawBuilder<string | null> {
  const rest = sql.ref(`${row}.rest`);
  return sql`case when ${sql.ref(`${row}.is_http`)}
    then coalesce(substr(${rest}, nullif(strpos(${rest}, '/'), 0)), '/')
    else ${urlPath(url)} end`;
}

/**
 * True for every URL whose path the step matches (and some others): a plain LIKE on the whole
 * URL, which costs little more than reading it, so that only these rows have their path taken.
 * Null when no such test is cheap (`contains` compares any case, and lower-casing whole URLs
 * costs more than it saves).
 */
export function urlMayMatch(step: PageStep, url: RawBuilder<unknown>): RawBuilder<boolean> | null {
  if (step.match === 'is' && step.value === '/') {
    // The path is '/' only when nothing but a '/' follows the host, before any query or fragment.
    return sql<boolean>`(${url} like '%/' or ${url} like '%?%' or ${url} like '%#%' or ${url} not like '%://%/%')`;
  }
  // A URL without a path reads as '/', which it need not contain.
  if (['', '/'].includes(step.value.replaceAll('*', ''))) return null;
  switch (step.match) {
    case 'is':
      return sql<boolean>`${url} like ${containsPattern(step.value)}`;
    case 'matches':
      return sql<boolean>`${url} like ${`%${matchesPattern(step.value)}%`}`;
    case 'contains':
      return null;
  }
}

/** Whether the path matches the step, as the stats filters compare (`contains` in any case). */
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
