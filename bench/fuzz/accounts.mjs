/** The rival account, written straight into the database, and the objects each account gets. */
import { call } from './api.mjs';
import { dist } from './server.mjs';

/** Inserts the rival account straight into the database (setup makes only the first). */
export async function insertRivalAccount(target, rival) {
  const [{ openDatabase }, { hashPassword }] = await Promise.all([
    import(dist('db/database.js')),
    import(dist('lib/secrets.js')),
  ]);
  const database = await openDatabase(target);
  try {
    const now = new Date();
    await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('accounts')
        .values({ id: rival.accountId, name: 'Rival', site_limit: 5, created_at: now })
        .execute();
      await trx
        .insertInto('users')
        .values({
          id: rival.userId,
          email: rival.email,
          password_hash: await hashPassword(rival.password),
          created_at: now,
        })
        .execute();
      await trx
        .insertInto('memberships')
        .values({ account_id: rival.accountId, user_id: rival.userId, role: 'admin', created_at: now })
        .execute();
    });
  } finally {
    await database.close();
  }
}

export async function createObjects(baseUrl, auth, fx, prefix) {
  const post = (target, body) => call(baseUrl, 'POST', target, { ...auth, body }).then((r) => r.json);
  const site = await post('/v1/sites', { domain: `${prefix}-a.example`, name: `${prefix} A` });
  const goal = (await post('/v1/goals', { site_id: site.snippet_key, name: 'signup' })).goal;
  const webhook = await post(`/v1/sites/${site.snippet_key}/webhooks`, { url: fx.receiverUrl });
  const botToken = await post('/v1/account/bot-tokens', { site_id: site.snippet_key });
  const key = await post('/v1/account/keys', {
    name: `${prefix} all`,
    scopes: ['stats:read', 'config:write', 'credentials:write', 'ingest:write'],
  });
  return { site, goalId: goal.id, webhookId: webhook.id, botToken, key };
}
