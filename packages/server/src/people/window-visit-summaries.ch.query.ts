/**
 * Each visitor id's visits overlapping the window, summarised in ClickHouse as
 * window-visit-summaries.query.ts does in PostgreSQL: how many, pageviews and engaged seconds,
 * and the first and the latest visit in full (by start time, then id in text order, which is
 * PostgreSQL's uuid order). ClickHouse holds no `ref` (the entry page's `?ref=`), so it is read
 * from PostgreSQL for those few visits by id; a visit PostgreSQL no longer keeps shows none.
 */
import type { Kysely } from 'kysely';
import type { ClickHouse } from '../clickhouse/connection.js';
import type { DB } from '../db/types.js';
import { type ChRow, chMoment, chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { chJoin, chRaw, chSql } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import {
  VISIT_FACT_COLUMNS,
  type VisitFacts,
  type WindowVisitSummary,
} from './window-visit-summaries.query.js';

/** The facts ClickHouse holds (all but `ref`, which is not copied), as text (ids and times converted back below). */
const FACTS = VISIT_FACT_COLUMNS.filter((name) => name !== 'ref');

const ORDER = '(v.started_at, toString(v.id))';
const picked = (pick: 'argMin' | 'argMax', prefix: string) =>
  FACTS.map((name) => chRaw(`toString(${pick}(v.${name}, ${ORDER})) AS ${prefix}_${name}`));

export async function chSummariseWindowVisits(
  ch: ClickHouse,
  scope: ChScope,
  db: Kysely<DB>,
  q: { visitorIds: readonly string[]; start: Date; end: Date },
): Promise<Map<string, WindowVisitSummary>> {
  const summaries = new Map<string, WindowVisitSummary>();
  if (q.visitorIds.length === 0) return summaries;
  const overlapping = chSql`has(${[...q.visitorIds]}, visitor_id)
    AND last_activity_at >= ${chTime(q.start)} AND started_at < ${chTime(q.end)}`;
  const rows = await chRows(
    ch,
    chSql`SELECT ${chJoin([
      chRaw('v.visitor_id AS visitor_id'),
      chRaw('count() AS session_count'),
      chRaw('sum(v.pageviews) AS pageviews'),
      chRaw('sum(v.engaged_seconds) AS engaged_seconds'),
      ...picked('argMin', 'first'),
      ...picked('argMax', 'latest'),
    ])}
    FROM ${siteRows(scope, 'visits', overlapping)} AS v
    WHERE ${overlapping}
    GROUP BY v.visitor_id`,
  );
  const refs = await findVisitRefs(
    db,
    scope.siteId,
    rows.flatMap((row) => [String(row.first_id), String(row.latest_id)]),
  );
  const factsOf = (row: ChRow, prefix: 'first' | 'latest'): VisitFacts => {
    const text = (name: (typeof FACTS)[number]) => String(row[`${prefix}_${name}`]);
    const id = text('id');
    return {
      id,
      started_at: chMoment(text('started_at')),
      last_activity_at: chMoment(text('last_activity_at')),
      entry_url: text('entry_url'),
      source_kind: text('source_kind') as VisitFacts['source_kind'],
      session_ai_source: text('session_ai_source'),
      source_name: text('source_name'),
      campaign: text('campaign'),
      ref: refs.get(id) ?? '',
      device_type: text('device_type'),
      os: text('os'),
      browser: text('browser'),
      country_code: text('country_code'),
      city: text('city'),
    };
  };
  for (const row of rows) {
    const visitorId = String(row.visitor_id);
    summaries.set(visitorId, {
      visitor_id: visitorId,
      session_count: Number(row.session_count),
      pageviews: Number(row.pageviews),
      engaged_seconds: Number(row.engaged_seconds),
      first: factsOf(row, 'first'),
      latest: factsOf(row, 'latest'),
    });
  }
  return summaries;
}

/** The `ref` of these visits, by id (the primary key: a handful of rows). */
async function findVisitRefs(db: Kysely<DB>, siteId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('visits')
    .select(['id', 'ref'])
    .where('site_id', '=', siteId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.ref]));
}
