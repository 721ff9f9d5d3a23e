/**
 * The pageviews and events of a funnel report that match at least one of its steps, as a
 * subquery. Pageviews are read by time (the block range index of 018 for a large site, the
 * btree of 017 for a small one), tested first with a LIKE on the URL that costs little more
 * than reading it, and only then have their path taken (page-path.ts); events are read by name
 * (the index of 003).
 */
import { type RawBuilder, sql } from 'kysely';
import type { EventStep, FunnelStep } from './funnel-steps.js';
import { pathFrom, pathMatches, pathParts, urlMayMatch } from './page-path.js';

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
  const pageSteps = q.steps.flatMap((step, i) => (step.type === 'page' ? [{ step, i }] : []));
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
  if (pageSteps.length > 0) {
    const url = sql<string>`e.url`;
    const at = sql`e.occurred_at`;
    const cheapTests = pageSteps.flatMap(({ step, i }) => {
      const test = urlMayMatch(step, url);
      return test ? [inRange(i, at, test)] : [];
    });
    const mayMatch = cheapTests.length === pageSteps.length ? sql.join(cheapTests, sql` or `) : sql`true`;
    const path = sql.ref('p.path');
    // Each `offset 0` keeps a subquery's columns computed once per row, rather than once per
    // step that reads them.
    parts.push(sql`
      select * from (
        select p.visitor_id, p.person_key, p.at, p.visit_id,
          ${sql.join(flags(sql`p.at`, (step) => (step.type === 'page' ? pathMatches(step, path) : null)))}
        from (
          select u.visitor_id, u.person_key, u.at, u.visit_id, ${pathFrom('u', sql`u.url`)} as path
          from (
            select e.visitor_id, e.person_key, e.occurred_at as at, e.visit_id, e.url, ${pathParts(url)}
            from events e
            where e.site_id = ${q.siteId} and e.type = 'pageview'
              and e.occurred_at >= ${start} and e.occurred_at < ${stop} and (${mayMatch})
            offset 0
          ) u
          offset 0
        ) p
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
