/**
 * funnel-report.query.ts in ClickHouse, one statement: each person's hits grouped into arrays,
 * their entry (the earliest step-1 hit in the range whose visit passes the filters; equal
 * times: the smaller visit id, none last) and then each step's time as the first hit of that
 * step strictly after the step before, up to the window after the entry. Medians are
 * `quantileExactInclusive`, the interpolation of PostgreSQL's `percentile_cont`, over the same
 * float seconds. windowFunnel is not used: it takes the best chain from any step-1 hit, not
 * the chain from the entry.
 */
import type { ClickHouse } from '../clickhouse/connection.js';
import { chFilter, VISIT_COLUMNS_ON_VISITS } from '../reporting/clickhouse/ch-columns.sql.js';
import { chRows } from '../reporting/clickhouse/ch-read.js';
import { type ChFragment, chJoin, chRaw, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import type { Instants } from '../reporting/grain.sql.js';
import { collectRows, type FunnelReportQuery, type FunnelReportRow } from './funnel-report.query.js';
import type { FunnelStep } from './funnel-steps.js';
import { chStepHits, chStepOneVisits } from './step-hits.ch.sql.js';

const HOUR_MS = 3_600_000;
/** Which step-1 hit is the entry: the earliest, then the smaller visit id (as text: byte order), none last. */
const ENTRY_ORDER = chRaw('(h.at, isNull(h.visit_id), toString(h.visit_id))');

export async function chFunnelReport(
  ch: ClickHouse,
  scope: ChScope,
  q: FunnelReportQuery,
  range: Instants,
): Promise<FunnelReportRow[] | null> {
  const windowMs = q.windowHours * HOUR_MS;
  const hitRange = { ...range, stop: new Date(range.end.getTime() + windowMs) };
  const hits = chStepHits(scope, q.steps, hitRange);
  const entryVisit = entryVisits(scope, q, chStepOneVisits(scope, q.steps[0] as FunnelStep, hitRange));
  if (entryVisit === null) return null;
  const steps = q.steps.map((_, i) => i);
  // t1, t2, …: the first hit of step k after the time of step k-1 (none: no time is after
  // it), within the window after the entry t0.
  const chain = steps.slice(1).map((k) => {
    const after = chRaw(`ifNull(t${k - 1}, toInt64(9e18))`);
    return chSql`arrayReduce('minOrNull', arrayFilter((a, f) -> f AND a > ${after} AND a <= t0 + ${windowMs},
      ats, ${chRaw(`f${k}`)})) AS ${chRaw(`t${k}`)}`;
  });
  const times = chRaw(`[${steps.map((i) => `toNullable(t${i})`).join(', ')}]`);
  // Without filters every entry passes, its visit found or not.
  const passes = q.filters.length ? chRaw('ev.passes') : chRaw('1');
  const entry = chSql`h.s0 AND ${passes}`;
  const select = chSql`
    SELECT step, is_group, if(is_group = 1, b, NULL) AS value, count() AS reached,
      quantileExactInclusive(0.5)(if(pos = 1, NULL, toFloat64(times[pos] - times[pos - 1]) / 1000))
        AS median_gap
    FROM (
      SELECT b, ${chJoin(chain)}, ${times} AS times
      FROM (
        SELECT h.person,
          minIf(h.at, ${entry}) AS t0,
          ${entryVisit ? chSql`argMinIf(tuple(if(ev.found, ev.b, NULL)), ${ENTRY_ORDER}, ${entry}).1` : chRaw('NULL')} AS b,
          groupArray(h.at) AS ats,
          ${chJoin(steps.slice(1).map((k) => chRaw(`groupArray(h.s${k}) AS f${k}`)))}
        FROM ${hits} AS h
        ${entryVisit ? chSql`LEFT JOIN ${entryVisit} AS ev ON ev.id = h.visit_id` : chRaw('')}
        GROUP BY h.person
        HAVING countIf(${entry}) > 0
      )
    )
    ARRAY JOIN arrayEnumerate(times) AS pos
    ARRAY JOIN ${chRaw(q.breakdown ? '[0, 1]' : '[0]')} AS is_group
    WHERE times[pos] IS NOT NULL
    GROUP BY pos - 1 AS step, is_group, value`;
  const rows = await chRows(ch, select);
  return collectRows(
    q.steps.length,
    rows.map((row) => ({
      is_group: Number(row.is_group) === 1,
      value: row.value === null ? null : String(row.value),
      step: Number(row.step),
      reached: Number(row.reached),
      median_gap: row.median_gap === null ? null : Number(row.median_gap),
    })),
  );
}

/**
 * The visits of step-1 hits in the range with the breakdown value `b` and whether they pass the
 * filters, or undefined when neither is asked; null when a filter is one the mirror does not hold.
 */
function entryVisits(scope: ChScope, q: FunnelReportQuery, ids: ChFragment): ChFragment | null | undefined {
  if (q.filters.length === 0 && q.breakdown === null) return undefined;
  const value = q.breakdown ? VISIT_COLUMNS_ON_VISITS[q.breakdown] : 'NULL';
  const filter = chFilter({ op: 'and', filters: q.filters }, 'visits', scope);
  if (!value || !filter) return null;
  return chSql`(SELECT v.id AS id, 1 AS found, toNullable(${chRaw(value)}) AS b, ${q.filters.length ? filter : chRaw('1')} AS passes
    FROM ${siteRows(scope, 'visits', chSql`id IN ${ids}`)} AS v)`;
}
