/** SQL of the goal registry. Names sort bytewise (`collate "C"`), the same on every server. */
import { type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import { goalSetLockId, holdTransactionLock } from '../db/advisory-locks.js';
import type { GoalsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

export type GoalRow = Selectable<GoalsTable>;
export type GoalChanges = Pick<Updateable<GoalsTable>, 'display_name' | 'emoji' | 'sort_order'>;

/** Active goals (and archived ones when asked), by `sort_order` then name. */
export function listGoals(db: Executor, siteId: string, options: { includeArchived: boolean }) {
  let query = db.selectFrom('goals').selectAll().where('site_id', '=', siteId);
  if (!options.includeArchived) query = query.where('archived_at', 'is', null);
  return query.orderBy('sort_order').orderBy(sql`name collate "C"`).execute();
}

export function findGoal(db: Executor, siteId: string, id: string) {
  return db
    .selectFrom('goals')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function isNameTaken(db: Executor, siteId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('goals')
    .select('id')
    .where('site_id', '=', siteId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countActiveGoals(db: Executor, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('goals')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('site_id', '=', siteId)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertGoal(
  db: Executor,
  row: Omit<GoalRow, 'archived_at' | 'sort_order'> & { sort_order: number },
): Promise<GoalRow> {
  return db.insertInto('goals').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateGoal(db: Executor, siteId: string, id: string, changes: GoalChanges) {
  return db
    .updateTable('goals')
    .set(changes)
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Sets `archived_at` once; archiving an archived goal keeps the first time. */
export function archiveGoal(db: Executor, siteId: string, id: string, now: Date) {
  return db
    .updateTable('goals')
    .set({ archived_at: sql<Date>`coalesce(archived_at, ${now})` })
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function unarchiveGoal(db: Executor, siteId: string, id: string) {
  return db
    .updateTable('goals')
    .set({ archived_at: null })
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Gives each listed goal of the site its position as `sort_order`; other ids match nothing. */
export async function setSortOrders(db: Executor, siteId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const positions = ids.map((_, index) => index);
  await sql`
    update goals set sort_order = listed.position
    from unnest(${ids}::uuid[], ${positions}::int[]) as listed(id, position)
    where goals.site_id = ${siteId} and goals.id = listed.id`.execute(db);
}

/** The site's goal ids among `ids`, for dropping ids of other sites before numbering. */
export async function goalIdsOfSite(db: Executor, siteId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('goals')
    .select('id')
    .where('site_id', '=', siteId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Serialises changes to the site's set of goals until the transaction ends. It is the lock the
 * ingest batch takes to register goals (`touchtrail_goals_lock_id`, the same id in SQL), so
 * creating or unarchiving a goal never races automatic registration past the limit.
 */
export async function lockGoalSet(trx: Transaction<DB>, siteId: string): Promise<void> {
  await holdTransactionLock(trx, goalSetLockId(siteId));
}
