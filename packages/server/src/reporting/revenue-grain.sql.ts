/**
 * Revenue metrics from the daily revenue rollup (revenue/revenue-ledger.ts writes it): net and
 * refunded amounts credited to each source under one attribution model, per UTC day and
 * currency (the extras); money.query.ts turns them into the site's currency. The rollup knows the
 * credited source label only, so revenue breaks down by time, channel and assistant, and is
 * filtered by channel and assistant alone (metric-rules.ts).
 */
import { sql } from 'kysely';
import type { AttributionModel } from '../db/types.js';
import { DIRECT_SOURCE } from '../revenue/credited-source.js';
import { AI_ASSISTANTS } from '../sources/sources.data.js';
import { filterSql } from './filter.sql.js';
import type { GrainQuery } from './grain.sql.js';
import type { Grouped } from './grouped.query.js';
import { isTimeDimension } from './stats-vocabulary.js';
import { dayBucketSql } from './visit-columns.sql.js';

const AI_LABELS = sql.join(AI_ASSISTANTS.map((assistant) => sql.lit(assistant.label)));

/**
 * The visit dimensions revenue can be read by, over `daily_revenue d`. '' is revenue no visit
 * could be credited with: direct, as its conversion is (conversion-grain.sql.ts).
 */
export const REVENUE_DIMENSION_SQL = {
  'visit:channel': sql<
    string | null
  >`case when d.source in (${AI_LABELS}) then 'ai' else coalesce(nullif(d.source, ''), ${sql.lit(DIRECT_SOURCE)}) end`,
  'visit:ai_source': sql<string | null>`case when d.source in (${AI_LABELS}) then d.source end`,
} as const;

export function revenueAmounts(q: GrainQuery, model: AttributionModel): Grouped {
  return {
    rows: sql`
      from daily_revenue d
      where d.site_id = ${q.siteId} and d.model = ${model}
        and d.day >= ${q.from}::date and d.day <= ${q.to}::date
        and ${filterSql({ op: 'and', filters: q.filters }, 'visits', REVENUE_DIMENSION_SQL)}`,
    dimensions: q.dimensions.map((name) => {
      const expression = isTimeDimension(name)
        ? dayBucketSql(name, sql`d.day`)
        : REVENUE_DIMENSION_SQL[name as keyof typeof REVENUE_DIMENSION_SQL];
      if (!expression) throw new Error(`revenue grain asked for ${name}`);
      return expression;
    }),
    extras: [sql`d.currency`, sql`to_char(d.day, 'YYYY-MM-DD')`],
    metrics: [sql`sum(d.gross_minor - d.refunded_minor)::float8`, sql`sum(d.refunded_minor)::float8`],
  };
}
