/**
 * The planner's statistics on embedded PGlite, which runs no autovacuum: without them every
 * table looks empty to the planner, and a report that joins a few thousand rows picks plans that
 * take seconds (the goal-visitors report over 15,000 events: about 3 s a page, against
 * milliseconds once analyzed). The worker refreshes them each hour there; PostgreSQL's
 * autovacuum does it on its own.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from './types.js';

export function createPlannerStatistics({ db }: { db: Kysely<DB> }) {
  return {
    async refresh(): Promise<void> {
      await sql`analyze`.execute(db);
    },
  };
}
