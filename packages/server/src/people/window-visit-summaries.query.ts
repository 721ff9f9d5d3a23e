/**
 * Each visitor id's visits overlapping the window, summarised: how many, pageviews and engaged
 * seconds, and the first and the latest of them in full (entry source of the first, device and
 * place of the latest). A person's row combines the summaries of their visitor ids.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { VisitsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';

/** The columns of a visit that the people reports show (entry source, device, place). */
export const VISIT_FACT_COLUMNS = [
  'id',
  'started_at',
  'last_activity_at',
  'entry_url',
  'source_kind',
  'session_ai_source',
  'source_name',
  'campaign',
  'ref',
  'device_type',
  'os',
  'browser',
  'country_code',
  'city',
] as const;

export type VisitFacts = Pick<Selectable<VisitsTable>, (typeof VISIT_FACT_COLUMNS)[number]>;

export interface WindowVisitSummary {
  visitor_id: string;
  session_count: number;
  pageviews: number;
  engaged_seconds: number;
  first: VisitFacts;
  latest: VisitFacts;
}

type Row = VisitFacts & {
  visitor_id: string;
  session_count: number;
  pageviews: number;
  engaged_seconds: number;
  first_rank: number;
  last_rank: number;
};

export async function summariseWindowVisits(
  db: Kysely<DB>,
  q: { siteId: string; visitorIds: readonly string[]; start: Date; end: Date },
): Promise<Map<string, WindowVisitSummary>> {
  const summaries = new Map<string, WindowVisitSummary>();
  if (q.visitorIds.length === 0) return summaries;
  const { rows } = await sql<Row>`
    select * from (
      select v.id, v.visitor_id, v.started_at, v.last_activity_at, v.entry_url, v.source_kind,
             v.session_ai_source, v.source_name, v.campaign, v.ref, v.device_type, v.os, v.browser,
             v.country_code, v.city,
             count(*) over per_visitor as session_count,
             sum(v.pageviews) over per_visitor as pageviews,
             sum(v.engaged_seconds) over per_visitor as engaged_seconds,
             row_number() over (partition by v.visitor_id order by v.started_at, v.id) as first_rank,
             row_number() over (partition by v.visitor_id order by v.started_at desc, v.id desc) as last_rank
      from visits v
      where v.site_id = ${q.siteId} and v.visitor_id in (${sql.join(q.visitorIds)})
        and v.last_activity_at >= ${q.start} and v.started_at < ${q.end}
      window per_visitor as (partition by v.visitor_id)
    ) ranked
    where first_rank = 1 or last_rank = 1
  `.execute(db);
  for (const row of rows) {
    const { visitor_id, session_count, pageviews, engaged_seconds, first_rank, last_rank, ...facts } = row;
    const summary = summaries.get(visitor_id) ?? {
      visitor_id,
      session_count: Number(session_count),
      pageviews: Number(pageviews),
      engaged_seconds: Number(engaged_seconds),
      first: facts,
      latest: facts,
    };
    if (Number(first_rank) === 1) summary.first = facts;
    if (Number(last_rank) === 1) summary.latest = facts;
    summaries.set(visitor_id, summary);
  }
  return summaries;
}
