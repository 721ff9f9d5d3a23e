/**
 * The goal registry (interface §2.2, §3.2, §4.1): list, create, update, reorder, archive and
 * unarchive; the reports are composed in from goal-reports.ts. Reads keep working for a site
 * scheduled for deletion; writes to its goals answer 404 like an unknown site.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import { isUniqueViolation } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError, badInput, notFound } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { newId, UUID_PATTERN } from '../lib/ids.js';
import type { SitesService } from '../sites/sites.service.js';
import { checkGoalFields, type GoalFieldsInput, REORDER_MAX_IDS } from './goal-fields.js';
import { GOALS_PER_SITE, goalNameProblem } from './goal-names.js';
import { createGoalReports } from './goal-reports.js';
import { presentGoal } from './goal-view.js';
import * as store from './goals.store.js';

export interface CreateGoalInput extends GoalFieldsInput {
  site_id: string;
  name: string;
}

export interface UpdateGoalInput extends GoalFieldsInput {
  site_id: string;
}

export interface GoalsDeps {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
}

const goalExists = (name: string) =>
  new AppError(409, 'goal_exists', `A goal named ${name} already exists on this site (archived or not)`, {
    field: 'name',
  });

const goalLimitReached = () =>
  new AppError(
    409,
    'goal_limit_reached',
    `This site already has ${GOALS_PER_SITE} active goals; archive one before adding another`,
  );

/** Goal ids are UUIDs, compared lower-cased; anything else names no goal. */
function goalIdOf(id: string): string {
  if (!UUID_PATTERN.test(id)) throw notFound('Goal');
  return id.toLowerCase();
}

export function createGoalsService({ db, clock, sites }: GoalsDeps) {
  /** The site a request names; writes refuse a site scheduled for deletion. */
  const siteFor = (principal: Principal, ref: string, access: 'read' | 'write') =>
    sites.resolveSite(principal, ref, { includeScheduled: access === 'read' });

  async function requireGoal(siteId: string, id: string) {
    const goal = await store.findGoal(db, siteId, goalIdOf(id));
    if (!goal) throw notFound('Goal');
    return goal;
  }

  return {
    /** Ordered by `sort_order` then name; archived goals only when asked for. */
    async list(principal: Principal, siteRef: string, options: { includeArchived: boolean }) {
      const site = await siteFor(principal, siteRef, 'read');
      const rows = await store.listGoals(db, site.id, options);
      return rows.map((row) => presentGoal(row, site.snippet_key));
    },

    /** A new active goal; its name must be unused on the site, archived goals included. */
    async create(principal: Principal, input: CreateGoalInput) {
      const problem = goalNameProblem(input.name);
      if (problem) throw badInput('name', `name ${problem}`);
      const fields = checkGoalFields(input);
      const site = await siteFor(principal, input.site_id, 'write');
      try {
        const row = await db.transaction().execute(async (trx) => {
          await store.lockGoalSet(trx, site.id);
          if (await store.isNameTaken(trx, site.id, input.name)) throw goalExists(input.name);
          if ((await store.countActiveGoals(trx, site.id)) >= GOALS_PER_SITE) throw goalLimitReached();
          return store.insertGoal(trx, {
            site_id: site.id,
            id: newId(),
            name: input.name,
            display_name: fields.display_name ?? null,
            emoji: fields.emoji ?? null,
            sort_order: fields.sort_order ?? 0,
            created_at: clock.now(),
          });
        });
        return presentGoal(row, site.snippet_key);
      } catch (error) {
        if (isUniqueViolation(error)) throw goalExists(input.name);
        throw error;
      }
    },

    /** Omitted fields stay as they are; an explicit null clears `display_name` or `emoji`. */
    async update(principal: Principal, id: string, input: UpdateGoalInput) {
      const changes = checkGoalFields(input);
      const site = await siteFor(principal, input.site_id, 'write');
      const goal = await requireGoal(site.id, id);
      if (Object.keys(changes).length === 0) return presentGoal(goal, site.snippet_key);
      const updated = await store.updateGoal(db, site.id, goal.id, changes);
      if (!updated) throw notFound('Goal');
      return presentGoal(updated, site.snippet_key);
    },

    /**
     * Numbers the listed goals 0, 1, 2 … in the order given, skipping ids that are not goals of
     * the site (they take no number); goals left out keep their `sort_order`. Answers the
     * site's active goals in their new order.
     */
    async reorder(principal: Principal, input: { site_id: string; goal_ids: string[] }) {
      if (input.goal_ids.length < 1 || input.goal_ids.length > REORDER_MAX_IDS) {
        throw badInput('goal_ids', `goal_ids must hold 1 to ${REORDER_MAX_IDS} ids`);
      }
      if (!input.goal_ids.every((id) => UUID_PATTERN.test(id))) {
        throw badInput('goal_ids', 'goal_ids must be goal ids (UUIDs)');
      }
      const ids = input.goal_ids.map((id) => id.toLowerCase());
      if (new Set(ids).size !== ids.length) throw badInput('goal_ids', 'goal_ids must not repeat an id');
      const site = await siteFor(principal, input.site_id, 'write');
      const rows = await db.transaction().execute(async (trx) => {
        // Two reorders would otherwise lock the goal rows in their own listed orders and deadlock.
        await store.lockGoalSet(trx, site.id);
        const own = await store.goalIdsOfSite(trx, site.id, ids);
        await store.setSortOrders(
          trx,
          site.id,
          ids.filter((id) => own.has(id)),
        );
        return store.listGoals(trx, site.id, { includeArchived: false });
      });
      return rows.map((row) => presentGoal(row, site.snippet_key));
    },

    /** Archives (never deletes): events with the name keep being recorded. Idempotent. */
    async archive(principal: Principal, id: string, siteRef: string) {
      const site = await siteFor(principal, siteRef, 'write');
      const archived = await store.archiveGoal(db, site.id, goalIdOf(id), clock.now());
      if (!archived) throw notFound('Goal');
    },

    /** Back to active, unless the site already holds the limit of active goals. */
    async unarchive(principal: Principal, id: string, siteRef: string) {
      const site = await siteFor(principal, siteRef, 'write');
      const row = await db.transaction().execute(async (trx) => {
        await store.lockGoalSet(trx, site.id);
        const goal = await store.findGoal(trx, site.id, goalIdOf(id));
        if (!goal) throw notFound('Goal');
        if (goal.archived_at === null) return goal;
        if ((await store.countActiveGoals(trx, site.id)) >= GOALS_PER_SITE) throw goalLimitReached();
        return store.unarchiveGoal(trx, site.id, goal.id);
      });
      return presentGoal(row, site.snippet_key);
    },

    ...createGoalReports({ db, clock, siteFor }),
  };
}

export type GoalsService = ReturnType<typeof createGoalsService>;
