/**
 * The pageviews and events of a funnel report that match at least one of its steps, as a
 * subquery. Pageviews are read by time (the block range index of 018 for a large site, the
 * btree of 017 for a small one) and matched on their stored path (023); events are read by
 * name (the index of 003).
 */
import { type RawBuilder, sql } from 'kysely';
import type { EventStep, FunnelStep } from './funnel-steps.js';
import { pathMatches } from './page-path.sql.js';

export interface StepHitsQuery {
  siteId: string;
  steps: FunnelStep[];
}

/**
 * Pageviews and events that match at least one step: visitor id, person key, time, visit and
 * one boolean column per step (`s0`, `s1`, …). Step 1 counts from `start` to the range `end`,
 * the others up to `stop` (the end plus the window).
 */
export function stepHits(
  q: StepHitsQuery,
  { start, end, stop }: { start: RawBuilder<unknown>; end: RawBuilder<unknown>; stop: RawBuilder<unknown> },
) {
  const parts: RawBuilder<unknown>[] = [];
  const hasPageSteps = q.steps.some((step) => step.type === 'page');
  const eventNames = [...new Set(q.steps.flatMap((step) => (step.type === 'event' ? [step.name] : [])))];
  /** Step 1 only inside the range: its hits after the end would be read for nothing. */
  const inRange = (i: number, at: RawBuilder<unknown>, test: RawBuilder<boolean>) =>
    i === 0 ? sql<boolean>`(${at} < ${end} and ${test})` : test;
  const flags = (at: RawBuilder<unknown>, matches: (step: FunnelStep) => RawBuilder<boolean> | null) =>
    q.steps.map((step, i) => {
      const test = matches(step);
      return sql`coalesce(${test ? inRange(i, at, test) : sql`false`}, false) as ${sql.ref(`s${i}`)}`;
    });
  const anyFlag = sql.join(
    q.steps.map((_, i) => sql.ref(`s${i}`)),
    sql` or `,
  );
  if (hasPageSteps) {
    const path = sql.ref('e.path');
    parts.push(sql`
      select * from (
        select e.visitor_id, e.person_key, e.occurred_at as at, e.visit_id,
          ${sql.join(flags(sql`e.occurred_at`, (step) => (step.type === 'page' ? pathMatches(step, path) : null)))}
        from events e
        where e.site_id = ${q.siteId} and e.type = 'pageview'
          and e.occurred_at >= ${start} and e.occurred_at < ${stop}
      ) pages where ${anyFlag}`);
  }
  if (eventNames.length > 0) {
    parts.push(sql`
      select * from (
        select e.visitor_id, e.person_key, e.occurred_at as at, e.visit_id,
          ${sql.join(flags(sql`e.occurred_at`, (step) => (step.type === 'event' ? eventMatches(step) : null)))}
        from events e
        where e.site_id = ${q.siteId} and e.type = 'event' and e.name in (${sql.join(eventNames)})
          and e.occurred_at >= ${start} and e.occurred_at < ${stop}
      ) named where ${anyFlag}`);
  }
  return sql.join(parts, sql` union all `);
}

function eventMatches(step: EventStep) {
  const named = sql<boolean>`e.name = ${step.name}`;
  if (!step.property) return named;
  return sql<boolean>`(${named} and e.properties ->> ${step.property.key} = ${step.property.value})`;
}
