/** Visits from AI assistants per entry page and assistant, started in a range of instants. */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { VISIT_DIMENSION_SQL } from '../reporting/visit-columns.sql.js';

export interface AiVisitRow {
  page: string;
  ai_source: string;
  visits: number;
}

export async function aiVisitsByPage(
  db: Kysely<DB>,
  w: { siteId: string; start: Date; end: Date },
): Promise<AiVisitRow[]> {
  const { rows } = await sql<AiVisitRow>`
    select p.page, p.ai_source, count(*)::int as visits
    from (
      select ${VISIT_DIMENSION_SQL['visit:entry_page']} as page, v.session_ai_source as ai_source
      from visits v
      where v.site_id = ${w.siteId} and v.started_at >= ${w.start} and v.started_at < ${w.end}
        and v.source_kind = 'ai'
    ) p
    where p.page is not null
    group by 1, 2
  `.execute(db);
  return rows;
}
