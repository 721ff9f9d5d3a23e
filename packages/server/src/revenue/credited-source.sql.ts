/**
 * The credited source of a conversion in SQL, as `creditedSource` (credited-source.ts) picks it
 * in TypeScript: its largest share under the model, shares equal to SHARE_TIE_DECIMALS decimals
 * a tie broken by source name. A lateral subquery of at most one credit row, to join as `alias`.
 */
import { type RawBuilder, sql } from 'kysely';
import { SHARE_TIE_DECIMALS } from './credited-source.js';

export function creditedSourceOf(q: {
  siteId: RawBuilder<unknown> | string;
  eventId: RawBuilder<unknown>;
  model: string;
}) {
  return sql`(
    select c.source, c.source_kind, c.share from attribution_credits c
    where c.site_id = ${q.siteId} and c.event_id = ${q.eventId} and c.model = ${q.model}
    order by round(c.share::numeric, ${sql.lit(SHARE_TIE_DECIMALS)}) desc, c.source limit 1
  )`;
}
