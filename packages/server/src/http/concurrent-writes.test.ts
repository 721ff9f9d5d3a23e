/**
 * Competing writes arriving at once: N identical or conflicting requests fired together. On
 * PostgreSQL the pool runs them side by side; on PGlite they queue on its one connection and the
 * same outcomes must hold. Never a 5xx; what the interface makes unique stays unique, limits
 * hold, idempotent posts count once, and concurrent updates leave one request's whole result.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse as Response } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../db/types.js';
import { goalsClient } from '../goals/goals.fixtures.js';
import { postPayment } from '../payments/payments.fixtures.js';
import { ALL_SCOPES, addOtherAccount, asKey, postSite, updateAccount } from '../sites/sites.fixtures.js';
import { bearer, mintKey, type Owner, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { webhookApi } from '../webhooks/webhooks.test-app.js';

const N = 10;
const MODELS = ['first_touch', 'last_touch', 'linear', 'time_decay'] as const;
const times = <T>(count: number, make: (i: number) => T) => Array.from({ length: count }, (_, i) => make(i));

interface Arranged {
  /** The i-th of the N requests fired together. */
  send(i: number): Promise<Response>;
  /** Work running at the same moment as the requests (a background worker). */
  alongside?(): Promise<unknown>;
  /** A count of stored rows and the number it must come to. */
  rows?: [() => Promise<number>, number];
  check?(responses: Response[]): Promise<void>;
}
/** `outcome`: the answers as `tally` counts them, or null when they depend on who came first. */
const race = (name: string, outcome: Record<string, number> | null, arrange: () => Promise<Arranged>) =>
  [name, outcome, arrange] as const;
/** One request wins with `won`, the other N - 1 answer `lost`. */
const oneWins = (won: string, lost: string) => ({ [won]: 1, [lost]: N - 1 });

/** Answers counted by status and word (error code, else `status`): `{'201': 1, '409 domain_taken': 9}`. */
function tally(responses: Response[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const body = response.statusCode === 201 || !response.body ? {} : response.json();
    const word = body.code ?? (typeof body.status === 'string' ? body.status : body.error);
    const label = word ? `${response.statusCode} ${word}` : String(response.statusCode);
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

describe('concurrent writes', () => {
  const t = useTestApp({ SITE_LIMIT: '4', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  let rival: Owner;
  beforeAll(async () => {
    // All but the site-cap case write to a second account, so the owner's count stays exact.
    rival = await addOtherAccount(t);
    await updateAccount(t, rival.accountId, { site_limit: 1000 });
  });

  /** Rows of `table` whose columns equal `where` (null: is null). */
  const countRows = (table: keyof DB, where: Record<string, unknown>) => async () => {
    const matches = Object.entries(where).map(([column, value]) =>
      value === null ? sql`${sql.ref(column)} is null` : sql`${sql.ref(column)} = ${value}`,
    );
    const query = sql`select count(*) as n from ${sql.table(table)} where ${sql.join(matches, sql` and `)}`;
    return Number(((await query.execute(t.database.db)).rows[0] as { n: number }).n);
  };
  const call = (key: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const freshKey = async (who = rival) => (await mintKey(t, who.cookie, { scopes: ALL_SCOPES })).api_key;
  /** A site of the second account and a fresh all-scope key, so rate budgets start empty. */
  const keyedSite = async () => {
    const site = await insertSite(t, rival.accountId);
    const key = await freshKey();
    return { site, key, goals: goalsClient(t, bearer(key)) };
  };
  const siteRow = (id: string) =>
    t.database.db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** `count` goals named `prefix_0`, `prefix_1` … written straight to the table. */
  const insertGoals = (siteId: string, count: number, prefix: string, archived = false) => {
    const now = t.clock.now();
    const rows = times(count, (i) => ({ site_id: siteId, id: randomUUID(), name: `${prefix}_${i}` }));
    const values = rows.map((row) => ({ ...row, created_at: now, archived_at: archived ? now : null }));
    return t.database.db.insertInto('goals').values(values).returningAll().execute();
  };
  const mintBotToken = (key: string, snippetKey: string) =>
    call(key, 'POST', '/v1/account/bot-tokens', { site_id: snippetKey });
  const revenue = async (site: { snippet_key: string }, key: string) => {
    const day = t.clock.now().toISOString().slice(0, 10);
    const url = `/v1/revenue?site_id=${site.snippet_key}&from=${day}&to=${day}`;
    return (await t.request({ method: 'GET', url, headers: bearer(key) })).json().totals;
  };

  const races = [
    race('one domain added N times to an account', oneWins('201', '409 domain_taken'), async () => {
      const auth = asKey(await freshKey());
      const active = { account_id: rival.accountId, domain: 'race.example.com', deleted_at: null };
      const send = () => postSite(t, auth, { domain: active.domain });
      return { send, rows: [countRows('sites', active), 1] };
    }),
    race('sites created past SITE_LIMIT', oneWins('201', '403 site_limit_reached'), async () => {
      const active = countRows('sites', { account_id: t.owner.accountId, deleted_at: null });
      for (let i = await active(); i < t.config.siteLimit - 1; i++) await insertSite(t, t.owner.accountId);
      const auth = asKey(await freshKey(t.owner));
      const send = (i: number) => postSite(t, auth, { domain: `cap-${i}.example.com` });
      return { send, rows: [active, t.config.siteLimit] };
    }),
    race('one goal name created N times on a site', oneWins('201', '409 goal_exists'), async () => {
      const { site, goals } = await keyedSite();
      const send = () => goals.create({ site_id: site.snippet_key, name: 'signup' });
      return { send, rows: [countRows('goals', { site_id: site.id }), 1] };
    }),
    race('goals created past 200 active', oneWins('201', '409 goal_limit_reached'), async () => {
      const { site, goals } = await keyedSite();
      await insertGoals(site.id, 199, 'goal');
      const send = (i: number) => goals.create({ site_id: site.snippet_key, name: `late_${i}` });
      return { send, rows: [countRows('goals', { site_id: site.id, archived_at: null }), 200] };
    }),
    race('goals unarchived past 200 active', oneWins('200', '409 goal_limit_reached'), async () => {
      const { site, goals } = await keyedSite();
      await insertGoals(site.id, 199, 'goal');
      const archived = await insertGoals(site.id, N, 'old', true);
      const send = (i: number) => goals.unarchive(archived[i]?.id ?? '', { site_id: site.snippet_key });
      return { send, rows: [countRows('goals', { site_id: site.id, archived_at: null }), 200] };
    }),
    race('webhooks created past 10 on a site', oneWins('201', '409 webhook_limit_reached'), async () => {
      const { site, key } = await keyedSite();
      const hooks = webhookApi(t, asKey(key), site.snippet_key);
      // Nothing listens on port 9: creation pings fail at once, and creation still succeeds (§3.3).
      for (let i = 0; i < 9; i++) await hooks.add(`https://127.0.0.1:9/filler-${i}`);
      const send = (i: number) => hooks.create({ url: `https://127.0.0.1:9/race-${i}` });
      return { send, rows: [countRows('webhooks', { site_id: site.id }), 10] };
    }),
    race('bot tokens past 5 per site', oneWins('201', '409 bot_token_limit_reached'), async () => {
      const { site, key } = await keyedSite();
      for (let i = 0; i < 4; i++) expect((await mintBotToken(key, site.snippet_key)).statusCode).toBe(201);
      const send = () => mintBotToken(key, site.snippet_key);
      return { send, rows: [countRows('bot_tokens', { site_id: site.id, revoked_at: null }), 5] };
    }),
    race('bot tokens past 30 per account', oneWins('201', '409 bot_token_limit_reached'), async () => {
      const other = await addOtherAccount(t, 'third@example.net');
      const sites = await Promise.all(times(7, () => insertSite(t, other.accountId)));
      for (let i = 0; i < 29; i++) await mintBotToken(other.apiKey, sites[i % 6]?.snippet_key ?? '');
      const send = () => mintBotToken(other.apiKey, sites[6]?.snippet_key ?? '');
      const active = countRows('bot_tokens', { account_id: other.accountId, revoked_at: null });
      return { send, rows: [active, 30] };
    }),
    race('one payment posted N times', oneWins('202 recorded', '202 duplicate'), async () => {
      const { site, key } = await keyedSite();
      const body = { site_id: site.snippet_key, transaction_id: 'ch_race', currency: 'usd', amount: 20 };
      return {
        send: () => postPayment(t, key, body),
        rows: [countRows('payments', { site_id: site.id }), 1],
        async check() {
          expect(await countRows('events', { site_id: site.id, name: 'payment' })()).toBe(1);
          await t.app.services.attribution.runUntilIdle();
          expect(await revenue(site, key)).toMatchObject({ gross: 20, conversions: 1 });
        },
      };
    }),
    race('refunds with growing running totals racing attribution', { '202 refunded': N }, async () => {
      const { site, key } = await keyedSite();
      const body = { site_id: site.snippet_key, transaction_id: 'ch_race', currency: 'usd', amount: 90 };
      expect((await postPayment(t, key, body)).json().status).toBe('recorded');
      return {
        send: (i) => postPayment(t, key, { ...body, refunded_amount: (i + 1) * 5 }),
        alongside: () => t.app.services.attribution.runUntilIdle(),
        async check() {
          // The largest running total is taken back once, whoever applied which part.
          await t.app.services.attribution.runUntilIdle();
          expect(await revenue(site, key)).toMatchObject({ gross: 90, refunded: 50, net: 40 });
        },
      };
    }),
    race('one server event posted N times', oneWins('202 recorded', '202 duplicate'), async () => {
      const { site, key } = await keyedSite();
      const body = { site_id: site.snippet_key, name: 'signup', event_id: 'order-1001' };
      return {
        send: () => call(key, 'POST', '/v1/server/events', body),
        rows: [countRows('events', { site_id: site.id }), 1],
        async check() {
          const rollups = t.database.db.selectFrom('daily_goal_completions').select('completions');
          expect(await rollups.where('site_id', '=', site.id).execute()).toEqual([{ completions: 1 }]);
        },
      };
    }),
    race('N PATCHes of one site: it ends as one of them left it', { '200': N }, async () => {
      const { site, key } = await keyedSite();
      const patches = times(N, (i) => ({ name: `Site ${i}`, attribution_model: MODELS[i % 4] }));
      return {
        send: (i) => call(key, 'PATCH', `/v1/sites/${site.snippet_key}`, patches[i]),
        async check() {
          const { name, attribution_model } = await siteRow(site.id);
          expect(patches).toContainEqual({ name, attribution_model });
        },
      };
    }),
    race('deletes racing PATCHes of one site', null, async () => {
      const { site, key } = await keyedSite();
      const url = `/v1/sites/${site.snippet_key}`;
      const remove = () => call(key, 'DELETE', url, { confirm_domain: site.domain });
      return {
        send: (i) => (i % 2 ? call(key, 'PATCH', url, { name: `Late ${i}` }) : remove()),
        async check(responses) {
          const deletes = responses.filter((_, i) => i % 2 === 0);
          const patches = responses.filter((_, i) => i % 2 === 1);
          // One deadline for every delete; each PATCH landed before it (200) or after it (404).
          const row = await siteRow(site.id);
          expect(tally(deletes)).toEqual({ '200 deletion_scheduled': N / 2 });
          for (const response of deletes)
            expect(response.json().effective_at).toBe(row.deletion_effective_at?.toJSON());
          for (const patch of patches) expect([200, 404]).toContain(patch.statusCode);
          const applied = patches.filter((p) => p.statusCode === 200).map((p) => p.json().name);
          expect([site.name, ...applied]).toContain(row.name);
        },
      };
    }),
    race('restores racing deletes', { '200 active': N / 2, '200 deletion_scheduled': N / 2 }, async () => {
      const { site, key } = await keyedSite();
      const url = `/v1/sites/${site.snippet_key}`;
      const remove = () => call(key, 'DELETE', url, { confirm_domain: site.domain });
      expect((await remove()).statusCode).toBe(200);
      return {
        send: (i) => (i % 2 ? remove() : call(key, 'POST', `${url}/restore`)),
        async check() {
          // Active, or scheduled with its deadline: never one of the two columns without the other.
          const row = await siteRow(site.id);
          expect(row.deletion_effective_at === null).toBe(row.deleted_at === null);
        },
      };
    }),
    race('N reorders of one site’s goals: one of the orders', { '200': N }, async () => {
      const { site, goals } = await keyedSite();
      const ids = (await insertGoals(site.id, 40, 'step')).map((goal) => goal.id);
      const orders = times(N, (i) => (i % 2 ? ids : [...ids].reverse()));
      return {
        send: (i) => goals.reorder({ site_id: site.snippet_key, goal_ids: orders[i] }),
        async check() {
          const rows = t.database.db.selectFrom('goals').select('id').where('site_id', '=', site.id);
          const final = await rows.orderBy('sort_order').execute();
          expect(orders).toContainEqual(final.map((goal) => goal.id));
        },
      };
    }),
  ];

  it.each(races)('%s', async (_name, outcome, arrange) => {
    const { send, alongside, rows, check } = await arrange();
    const [responses] = await Promise.all([Promise.all(times(N, send)), alongside?.()]);
    for (const response of responses) expect(response.statusCode, response.body).toBeLessThan(500);
    if (outcome) expect(tally(responses)).toEqual(outcome);
    if (rows) expect(await rows[0]()).toBe(rows[1]);
    await check?.(responses);
  });
});
