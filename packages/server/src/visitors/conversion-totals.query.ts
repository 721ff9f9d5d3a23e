/**
 * Conversion events (type `event`, any name) in the window for a set of visitor ids and person
 * keys: how many, and the sum of their values in one currency. An event with a visitor id is
 * counted for that visitor id; one with only a person key (a server event) for that key.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

export interface ConversionTotal {
  /** Set for events carrying a visitor id. */
  visitor_id: string | null;
  /** Set for events carrying only a person key. */
  person_key: string | null;
  conversion_count: number;
  /** Minor units of `currency` only; values in other currencies are not in this sum. */
  total_minor: number;
}

export async function sumConversions(
  db: Kysely<DB>,
  q: {
    siteId: string;
    visitorIds: readonly string[];
    personKeys: readonly string[];
    currency: string;
    start: Date;
    end: Date;
  },
): Promise<ConversionTotal[]> {
  if (q.visitorIds.length === 0 && q.personKeys.length === 0) return [];
  const byVisitor = q.visitorIds.length ? sql`visitor_id in (${sql.join(q.visitorIds)})` : sql`false`;
  const byKey = q.personKeys.length
    ? sql`(visitor_id is null and person_key in (${sql.join(q.personKeys)}))`
    : sql`false`;
  const { rows } = await sql<ConversionTotal>`
    select visitor_id,
           case when visitor_id is null then person_key end as person_key,
           count(*) as conversion_count,
           coalesce(sum(value_minor) filter (where currency = ${q.currency}), 0) as total_minor
    from events
    where site_id = ${q.siteId} and type = 'event'
      and occurred_at >= ${q.start} and occurred_at < ${q.end}
      and (${byVisitor} or ${byKey})
    group by 1, 2
  `.execute(db);
  return rows.map((row) => ({
    ...row,
    conversion_count: Number(row.conversion_count),
    total_minor: Number(row.total_minor),
  }));
}
