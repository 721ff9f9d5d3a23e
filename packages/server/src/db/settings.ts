/** Instance-wide values kept in the database, so every process of one installation shares them. */
import type { Kysely } from 'kysely';
import type { DB } from './types.js';

export async function readSetting(db: Kysely<DB>, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}

/** Stores `value` unless a value is already there; returns whichever value won. */
export async function settleSetting(db: Kysely<DB>, name: string, value: string): Promise<string> {
  await db
    .insertInto('server_settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await readSetting(db, name)) ?? value;
}

export async function writeSetting(db: Kysely<DB>, name: string, value: string): Promise<void> {
  await db
    .insertInto('server_settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}

/** Stores `value` when the name holds none yet; true when this call stored it (a one-time gate). */
export async function claimSetting(db: Kysely<DB>, name: string, value: string): Promise<boolean> {
  const result = await db
    .insertInto('server_settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteSettings(db: Kysely<DB>, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await db
    .deleteFrom('server_settings')
    .where('name', 'in', [...names])
    .execute();
}
