/** SQL of the saved funnels. Steps are stored as the JSON the API checked (funnel-steps.ts). */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { funnelSetLockId, holdTransactionLock } from '../db/advisory-locks.js';
import type { DB, FunnelsTable } from '../db/types.js';
import type { FunnelStep } from './funnel-steps.js';

type Executor = Kysely<DB> | Transaction<DB>;

export type FunnelRow = Omit<Selectable<FunnelsTable>, 'steps'> & { steps: FunnelStep[] };

export interface FunnelChanges {
  name?: string;
  steps?: FunnelStep[];
  window_hours?: number;
  updated_at: Date;
}

const asFunnel = (row: Selectable<FunnelsTable>): FunnelRow => ({ ...row, steps: row.steps as FunnelStep[] });

/** Oldest first, so a list keeps its order as funnels are added. */
export async function listFunnels(db: Executor, siteId: string): Promise<FunnelRow[]> {
  const rows = await db
    .selectFrom('funnels')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(asFunnel);
}

export async function findFunnel(db: Executor, siteId: string, id: string): Promise<FunnelRow | undefined> {
  const row = await db
    .selectFrom('funnels')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && asFunnel(row);
}

/** Serialises creations on one site, so two at once cannot both pass the per-site limit. */
export async function lockFunnelSet(trx: Transaction<DB>, siteId: string): Promise<void> {
  await holdTransactionLock(trx, funnelSetLockId(siteId));
}

export async function countFunnels(db: Executor, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('funnels')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertFunnel(
  db: Executor,
  row: Omit<FunnelRow, 'updated_at'> & { updated_at: Date },
): Promise<FunnelRow> {
  const inserted = await db
    .insertInto('funnels')
    .values({ ...row, steps: JSON.stringify(row.steps) })
    .returningAll()
    .executeTakeFirstOrThrow();
  return asFunnel(inserted);
}

export async function updateFunnel(
  db: Executor,
  siteId: string,
  id: string,
  changes: FunnelChanges,
): Promise<FunnelRow | undefined> {
  const { steps, ...rest } = changes;
  const row = await db
    .updateTable('funnels')
    .set({ ...rest, ...(steps === undefined ? {} : { steps: JSON.stringify(steps) }) })
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && asFunnel(row);
}

/** True when a funnel was deleted. */
export async function deleteFunnel(db: Executor, siteId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('funnels')
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
