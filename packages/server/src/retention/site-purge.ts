/**
 * A retention purge that walks the sites one at a time and deletes each site's expired rows in
 * bounded statements, so no run holds a long lock or one huge transaction. A run that uses up
 * its budget resumes after the last site it finished, so every site gets its turn; running it
 * twice, or from two processes at once, is harmless: each statement deletes whatever expired
 * rows are still there.
 */
import type { Clock } from '../lib/clock.js';

// retention.ts takes the delete from here with the walk.

export interface RetentionRunOptions {
  /** Rows per delete statement. */
  batchSize?: number;
  /** Delete statements per run, across all sites; the rest waits for the next run. */
  maxBatches?: number;
}

export interface RetentionRun {
  deleted: number;
  /** Whether the run reached the last site. */
  finished: boolean;
}

/** Deletes up to `limit` of a site's expired rows of one kind; returns how many went. */
export type PurgePhase = (limit: number) => Promise<number>;

/**
 * Walks `listSites` (after the given id, in id order) and runs each site's phases in order, each
 * until a statement finds fewer than the batch size. `plan` answers the site's phases, none when
 * it has nothing to purge. A step of the budget runs statements until one deletes something or
 * the site is done, so a run that starts a site again always gets further.
 */
export function createSitePurge<S extends { id: string }>(deps: {
  clock: Clock;
  listSites: (after: string | null) => Promise<S[]>;
  plan: (site: S, now: Date) => Promise<PurgePhase[]>;
}): (options?: RetentionRunOptions) => Promise<RetentionRun> {
  let resumeAfter: string | null = null;

  return async ({ batchSize = 1000, maxBatches = 500 } = {}) => {
    const now = deps.clock.now();
    const sites = await deps.listSites(resumeAfter);
    let budget = maxBatches;
    let deleted = 0;
    for (const site of sites) {
      const phases = await deps.plan(site, now);
      let phase = 0;
      while (phase < phases.length) {
        if (budget === 0) return { deleted, finished: false };
        budget--;
        for (let count = 0; count === 0 && phase < phases.length; ) {
          count = await (phases[phase] as PurgePhase)(batchSize);
          deleted += count;
          if (count < batchSize) phase++;
        }
      }
      resumeAfter = site.id;
    }
    resumeAfter = null;
    return { deleted, finished: true };
  };
}
