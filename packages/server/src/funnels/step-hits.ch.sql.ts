/**
 * step-hits.query.ts in ClickHouse: the pageviews and events of a funnel report that match at
 * least one of its steps, each with its person, as a subquery over the site's traffic
 * (ch-tables.sql.ts `siteRows`).
 */
import { chProperty } from '../reporting/clickhouse/ch-columns.sql.js';
import { chTime } from '../reporting/clickhouse/ch-read.js';
import { type ChFragment, chJoin, chRaw, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, personLinks, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import { containsPattern, matchesPattern } from '../reporting/like-pattern.js';
import type { EventStep, FunnelStep, PageStep } from './funnel-steps.js';

/** Step 1 counts from `start` to `end`, the others up to `stop` (the end plus the window). */
export interface HitRange {
  start: Date;
  end: Date;
  stop: Date;
}

/**
 * Hits with `person` (as personSql: the linked person, else the visitor id, else the event's
 * person key), `at` in epoch milliseconds, `visit_id` and one flag per step (`s0`, `s1`, …).
 */
export function chStepHits(scope: ChScope, steps: FunnelStep[], range: HitRange): ChFragment {
  const eventNames = [...new Set(steps.flatMap((step) => (step.type === 'event' ? [step.name] : [])))];
  const kinds: ChFragment[] = [];
  if (steps.some((step) => step.type === 'page')) kinds.push(chRaw("type = 'pageview'"));
  if (eventNames.length > 0) kinds.push(chSql`(type = 'event' AND has(${eventNames}, assumeNotNull(name)))`);
  const narrow = chSql`(${chJoin(kinds, ' OR ')})
    AND occurred_at >= ${chTime(range.start)} AND occurred_at < ${chTime(range.stop)}`;
  const flags = steps.map((step, i) => {
    // Step 1 only inside the range.
    const inRange = i === 0 ? chSql`e.occurred_at < ${chTime(range.end)} AND ` : chRaw('');
    return chSql`coalesce(${inRange}${stepMatches(step)}, 0) AS ${chRaw(`s${i}`)}`;
  });
  const anyFlag = chRaw(steps.map((_, i) => `s${i}`).join(' OR '));
  return chSql`(
    SELECT multiIf(pl.person_key != '', concat('p:', pl.person_key),
        e.visitor_id IS NOT NULL, concat('v:', assumeNotNull(e.visitor_id)),
        concat('p:', assumeNotNull(e.person_key))) AS person,
      toUnixTimestamp64Milli(e.occurred_at) AS at, e.visit_id AS visit_id, ${chJoin(flags)}
    FROM ${siteRows(scope, 'events', narrow)} AS e
    LEFT JOIN ${personLinks(scope)} AS pl ON pl.visitor_id = ifNull(e.visitor_id, '')
    WHERE ${narrow} AND (e.visitor_id IS NOT NULL OR e.person_key IS NOT NULL) AND (${anyFlag}))`;
}

/** The visits of step-1 hits in the range, as a subquery of one column: where entries can be. */
export function chStepOneVisits(scope: ChScope, step: FunnelStep, range: HitRange): ChFragment {
  const narrow = chSql`type = ${step.type === 'page' ? 'pageview' : 'event'}
    AND occurred_at >= ${chTime(range.start)} AND occurred_at < ${chTime(range.end)}`;
  return chSql`(SELECT e.visit_id FROM ${siteRows(scope, 'events', narrow)} AS e
    WHERE ${narrow} AND e.visit_id IS NOT NULL AND coalesce(${stepMatches(step)}, 0))`;
}

const stepMatches = (step: FunnelStep) =>
  step.type === 'page' ? chSql`e.type = 'pageview' AND ${pathMatches(step)}` : eventMatches(step);

/** As page-path.sql.ts: `is` exactly, `contains` in any case, `matches` with `*` wildcards. */
function pathMatches(step: PageStep): ChFragment {
  switch (step.match) {
    case 'is':
      return chSql`e.path = ${step.value}`;
    case 'contains':
      return chSql`e.path ILIKE ${containsPattern(step.value)}`;
    case 'matches':
      return chSql`e.path LIKE ${matchesPattern(step.value)}`;
  }
}

/** As step-hits.query.ts: the name, and the property's value read as `->>` reads it. */
function eventMatches(step: EventStep): ChFragment {
  const named = chSql`e.type = 'event' AND e.name = ${step.name}`;
  if (!step.property) return named;
  return chSql`${named} AND ${chProperty('e', step.property.key)} = ${step.property.value}`;
}
