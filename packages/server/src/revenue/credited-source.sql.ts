/**
 * The credited source of a conversion in SQL, as `creditedSource` (credited-source.ts) picks it
 * in TypeScript: its largest share under the model, shares equal to SHARE_TIE_DECIMALS decimals
 * a tie broken by source name. `floor(x + 0.5)` in float8 is JavaScript's `Math.round` exactly;
 * rounding the share as numeric keeps only 15 digits and differs at halves. Names compare
 * bytewise (`collate "C"`), as JavaScript compares them, whatever the database's collation.
 * A lateral subquery of at most one credit row.
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
    order by floor(c.share * ${sql.lit(10 ** SHARE_TIE_DECIMALS)}::float8 + 0.5) desc, c.source collate "C" limit 1
  )`;
}
