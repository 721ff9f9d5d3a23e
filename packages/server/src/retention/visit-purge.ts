/**
 * The visits purge, for sites with `visits_retention_days`: a visit goes once it both started
 * and last had activity that many days ago, and only over days whose rollups are built
 * (built-days.ts), as the reports of those days read the rollups. Then the site's visitors
 * last seen before then go, once no visit of theirs is left (an identify alone makes a visitor
 * without a visit, so this is not tied to the visits just deleted). A visitor who comes back
 * later counts as new. Identity links stay: they tie a person, not a visit.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { findBuiltDays, onBuiltDays } from './built-days.js';
import { createSitePurge, deleteSiteRows } from './site-purge.js';

interface SiteRule {
  id: string;
  visits_retention_days: number | null;
}

export function createVisitPurge(db: Kysely<DB>, clock: Clock) {
  return createSitePurge<SiteRule>({
    clock,
    listSites: (after) =>
      db
        .selectFrom('sites')
        .select(['id', 'visits_retention_days'])
        .where('visits_retention_days', 'is not', null)
        .$if(after !== null, (query) => query.where('id', '>', after as string))
        .orderBy('id')
        .execute(),
    plan: async (site, now) => {
      const cutoff = new Date(now.getTime() - (site.visits_retention_days as number) * DAY_MS);
      const builtVisits = onBuiltDays(await findBuiltDays(db, site.id), 'started_at');
      const expiredVisits = sql`started_at < ${cutoff} and last_activity_at < ${cutoff} and ${builtVisits}`;
      const goneVisitors = sql`last_seen < ${cutoff} and not exists (
        select 1 from visits v where v.site_id = ${site.id} and v.visitor_id = visitors.visitor_id
      )`;
      return [
        (limit) => deleteSiteRows(db, { table: 'visits', key: 'id' }, site.id, expiredVisits, limit),
        (limit) => deleteSiteRows(db, { table: 'visitors', key: 'visitor_id' }, site.id, goneVisitors, limit),
      ];
    },
  });
}
