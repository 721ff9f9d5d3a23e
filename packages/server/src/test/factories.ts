/**
 * Rows written straight to the database for tests that need them before the feature that
 * creates them is the subject. Defaults are awkward on purpose (IDN domains, emoji names).
 */
import { randomUUID } from 'node:crypto';
import { newSnippetKey } from '../lib/ids.js';
import { hashPassword } from '../lib/secrets.js';
import type { TestApp } from './app.js';

export async function insertSite(
  t: TestApp,
  accountId: string,
  overrides: { domain?: string; name?: string | null; deleted?: boolean } = {},
) {
  const site = {
    id: randomUUID(),
    account_id: accountId,
    snippet_key: newSnippetKey(),
    domain: overrides.domain ?? `shop-${randomUUID().slice(0, 8)}.xn--bcher-kva.example`,
    name: overrides.name === undefined ? 'Bücher 📚' : overrides.name,
    region: 'eu' as const,
    created_at: t.clock.now(),
    deleted_at: overrides.deleted ? t.clock.now() : null,
  };
  await t.database.db.insertInto('sites').values(site).execute();
  return site;
}

/** A second account with an admin, to check that nothing crosses accounts. */
export async function insertAccount(t: TestApp, email = `rival-${randomUUID().slice(0, 8)}@example.com`) {
  const accountId = randomUUID();
  const userId = randomUUID();
  const now = t.clock.now();
  const password = 'rival password 123';
  await t.database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('accounts')
      .values({ id: accountId, name: 'Rival', site_limit: 5, created_at: now })
      .execute();
    await trx
      .insertInto('users')
      .values({ id: userId, email, password_hash: await hashPassword(password), created_at: now })
      .execute();
    await trx
      .insertInto('memberships')
      .values({ account_id: accountId, user_id: userId, role: 'admin', created_at: now })
      .execute();
  });
  return { accountId, userId, email, password };
}
