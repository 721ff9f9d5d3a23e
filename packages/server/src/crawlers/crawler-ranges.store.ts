/** SQL of `crawler_ip_ranges`: the address ranges each crawler's operator publishes. */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

/** Stores a freshly downloaded list in place of the crawler's previous one. */
export async function saveRangeList(
  db: Kysely<DB>,
  list: { crawler: string; sourceUrl: string; prefixes: string[]; fetchedAt: Date },
): Promise<void> {
  await db
    .insertInto('crawler_ip_ranges')
    .values({
      crawler: list.crawler,
      source_url: list.sourceUrl,
      prefixes: JSON.stringify(list.prefixes),
      fetched_at: list.fetchedAt,
    })
    .onConflict((oc) =>
      oc.column('crawler').doUpdateSet({
        source_url: (eb) => eb.ref('excluded.source_url'),
        prefixes: (eb) => eb.ref('excluded.prefixes'),
        fetched_at: (eb) => eb.ref('excluded.fetched_at'),
      }),
    )
    .execute();
}

/** Every stored list; `prefixes` as stored JSON, which the reader checks is an array. */
export function readRangeLists(db: Kysely<DB>) {
  return db
    .selectFrom('crawler_ip_ranges')
    .select(['crawler', 'fetched_at', sql<string[]>`prefixes`.as('prefixes')])
    .execute();
}
