/**
 * How many people reached each step of a funnel, in one query. A person (identity/identity.ts)
 * enters at their earliest step-1 occurrence inside the range whose visit passes the filters;
 * step k then counts at that person's first occurrence strictly after their step k-1, up to
 * the window after their step 1 (which may reach past the range end).
 *
 * Only the rows that match some step are read (step-hits.query.ts), each mapped to its person
 * once. Each step's time is found from the one before by a join on the person, so the work grows
 * with the matching rows, not with the site.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { personLinks } from '../identity/identity.sql.js';
import { filterSql } from '../reporting/filter.sql.js';
import type { Filter } from '../reporting/filters.js';
import { personSql, VISIT_DIMENSION_SQL } from '../reporting/visit-columns.sql.js';
import type { FunnelStep } from './funnel-steps.js';
import { stepHits } from './step-hits.query.js';

export const FUNNEL_BREAKDOWNS = ['visit:channel', 'visit:ai_source'] as const;
export type FunnelBreakdown = (typeof FUNNEL_BREAKDOWNS)[number];

export interface FunnelReportQuery {
  siteId: string;
  steps: FunnelStep[];
  windowHours: number;
  /** Inclusive days in `timezone`. */
  from: string;
  to: string;
  timezone: string;
  breakdown: FunnelBreakdown | null;
  filters: Filter[];
}

export interface FunnelReportRow {
  /** False for the row of every person, true for a breakdown group. */
  isGroup: boolean;
  /** The group's value (null: none, such as an entry outside the AI channel); null on the total row. */
  value: string | null;
  /** People at each step. */
  reached: number[];
  /** Median seconds from each step to the next among those who reached the next; null when nobody did. */
  medianSeconds: (number | null)[];
}

type Row = {
  is_group: boolean;
  value: string | null;
  step: number;
  reached: number;
  median_gap: number | null;
};

/** Per hash or sort of the query: enough for the hits of a 10M-pageview site's month. */
const REPORT_WORK_MEM = '32MB';

export async function funnelReport(db: Kysely<DB>, q: FunnelReportQuery): Promise<FunnelReportRow[]> {
  const start = sql`(${q.from}::date::timestamp at time zone ${q.timezone})`;
  const end = sql`((${q.to}::date + 1)::timestamp at time zone ${q.timezone})`;
  const window = sql`(${q.windowHours}::int * interval '1 hour')`;
  const reached = (i: number) => sql.ref(`r${i}`);
  const needsVisit = q.filters.length > 0 || q.breakdown !== null;

  // r1, r2, …: each person's first hit of the step after their previous step's time `prev`.
  const stepCtes = q.steps.slice(1).map(
    (_, k) => sql`, ${reached(k + 1)} as (
      select p.person, p.t1, p.b, p.t as prev, min(h.at) as t
      from ${reached(k)} p join hits h on h.person = p.person
      where h.${sql.ref(`s${k + 1}`)} and h.at > p.t and h.at <= p.t1 + ${window}
      group by p.person, p.t1, p.b, p.t
    )`,
  );
  // One row per person and step reached, with the seconds since their step before.
  const reachedRows = q.steps.map((_, i) =>
    i === 0
      ? sql`select 0 as step, b, null::float8 as gap from r0`
      : sql`select ${sql.lit(i)}, b, extract(epoch from t - prev)::float8 from ${reached(i)}`,
  );
  const grouping = q.breakdown
    ? sql`grouping(b) = 0 as is_group, b as value`
    : sql`false as is_group, null::text as value`;

  const query = sql<Row>`
    with hits as (
      select ${personSql(sql`m.visitor_id`, sql`m.person_key`)} as person,
             m.at, ${needsVisit ? sql`m.visit_id` : sql`null::uuid as visit_id`},
             ${sql.join(q.steps.map((_, i) => sql.ref(`s${i}`)))}
      from (${stepHits(q, { start, end, stop: sql`${end} + ${window}` })}) m
      left join ${personLinks(q.siteId)} pl on pl.visitor_id = m.visitor_id
      where m.visitor_id is not null or m.person_key is not null
    ),
    ${entries(q, { start, end })}
    ${sql.join(stepCtes, sql``)}
    select ${grouping}, step, count(*)::float8 as reached,
      percentile_cont(0.5) within group (order by gap) as median_gap
    from (${sql.join(reachedRows, sql` union all `)}) s
    group by ${q.breakdown ? sql`grouping sets ((step), (step, b))` : sql`step`}
  `;
  const { rows } = await db.transaction().execute(async (trx) => {
    // Compiling this one query costs PostgreSQL's JIT more than it saves; and its hashes of
    // people and their hits spill to disk within the default 4 MB.
    await sql`set local jit = off`.execute(trx);
    await sql`set local work_mem = ${sql.lit(REPORT_WORK_MEM)}`.execute(trx);
    return query.execute(trx);
  });
  return collectRows(q.steps.length, rows);
}

/** The query's rows (one per step reached, per group) as one row per group with every step. */
export function collectRows(stepCount: number, rows: Row[]): FunnelReportRow[] {
  const groups = new Map<string, FunnelReportRow>();
  // Every person reaching no step still leaves the total row: zeros.
  groups.set('total', {
    isGroup: false,
    value: null,
    reached: Array(stepCount).fill(0),
    medianSeconds: Array(stepCount).fill(null),
  });
  for (const row of rows) {
    const key = row.is_group ? `group:${row.value === null ? '' : `=${row.value}`}` : 'total';
    const group = groups.get(key) ?? {
      isGroup: true,
      value: row.value,
      reached: Array(stepCount).fill(0),
      medianSeconds: Array(stepCount).fill(null),
    };
    const step = Number(row.step);
    group.reached[step] = Number(row.reached);
    // The gap into step k is the time from step k-1 to the next one.
    if (step > 0 && row.median_gap !== null)
      group.medianSeconds[step - 1] = Math.round(Number(row.median_gap));
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * `r0`: each person's entry (step 1) with its time as both `t1` and `t`, and the breakdown
 * value `b` of its visit. Without filters or a breakdown no visit is read.
 */
function entries(
  q: FunnelReportQuery,
  { start, end }: { start: RawBuilder<unknown>; end: RawBuilder<unknown> },
) {
  if (q.filters.length === 0 && q.breakdown === null) {
    return sql`r0 as (
      select h.person, min(h.at) as t1, min(h.at) as t, null::text as b
      from hits h where h.s0
      group by h.person
    )`;
  }
  const value = q.breakdown ? VISIT_DIMENSION_SQL[q.breakdown] : sql`null::text`;
  const filter = q.filters.length ? filterSql({ op: 'and', filters: q.filters }) : null;
  const visit = (column: RawBuilder<unknown>) =>
    sql`(select ${column} from visits v where v.site_id = ${q.siteId} and v.id = e.visit_id)`;
  // The visits of the entries are read in one pass over those started from a day before the
  // range (a visit lasts minutes); any other is looked up on its own. A step-1 hit outside any
  // visit (a server event) passes no filter and has no breakdown value.
  return sql`visit_entries as (
      select h.person, h.visit_id, min(h.at) as at from hits h where h.s0 group by h.person, h.visit_id
    ),
    entry_visits as (
      select e.person, e.visit_id, e.at,
        case when rv.id is null then ${visit(value)} else rv.b end as b,
        ${filter ? sql`case when rv.id is null then coalesce(${visit(filter)}, false) else rv.passes end` : sql`true`} as passes
      from visit_entries e
      left join (
        select v.id, ${value} as b, ${filter ?? sql`true`} as passes from visits v
        where v.site_id = ${q.siteId} and v.started_at >= ${start} - interval '1 day' and v.started_at < ${end}
      ) rv on rv.id = e.visit_id
    ),
    r0 as (
      select distinct on (e.person) e.person, e.at as t1, e.at as t, e.b
      from entry_visits e where e.passes
      order by e.person, e.at, e.visit_id
    )`;
}
