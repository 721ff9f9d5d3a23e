/**
 * The visits purge, for sites with `visits_retention_days`: a visit goes once it both started
 * and last had activity that many days ago, and only over days whose rollups are built
 * (built-days.query.ts), as the reports of those days read the rollups. Then the site's visitors
 * last seen before then go, once no visit of theirs is left (an identify alone makes a visitor
 * without a visit, so this is not tied to the visits just deleted). A visitor who comes back
 * later counts as new. Identity links stay: they tie a person, not a visit.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { findBuiltDays, onBuiltDays } from './built-days.query.js';
import { deleteSiteRows, expiredVisits, goneVisitors, listSitesWithVisitRule } from './retention.store.js';
import { createSitePurge } from './site-purge.js';

interface SiteRule {
  id: string;
  visits_retention_days: number | null;
}

export function createVisitPurge(db: Kysely<DB>, clock: Clock) {
  return createSitePurge<SiteRule>({
    clock,
    listSites: (after) => listSitesWithVisitRule(db, after),
    plan: async (site, now) => {
      const cutoff = new Date(now.getTime() - (site.visits_retention_days as number) * DAY_MS);
      const builtVisits = onBuiltDays(await findBuiltDays(db, site.id), 'started_at');
      const visits = expiredVisits(cutoff, builtVisits);
      const visitors = goneVisitors(site.id, cutoff);
      return [
        (limit) => deleteSiteRows(db, { table: 'visits', key: 'id' }, site.id, visits, limit),
        (limit) => deleteSiteRows(db, { table: 'visitors', key: 'visitor_id' }, site.id, visitors, limit),
      ];
    },
  });
}
