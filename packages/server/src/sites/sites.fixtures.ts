/**
 * Test factories for the sites suites: sites through the API, members with their own keys, and
 * a second account inserted straight into the database (the API creates only the first one).
 */
import type { LightMyRequestResponse } from 'fastify';
import { newId } from '../lib/ids.js';
import { hashPassword } from '../lib/secrets.js';
import { bearer, login, mintKey, type Owner, type TestApp } from '../test/app.js';

export const ALL_SCOPES = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'];

export type Auth = { authorization: string } | { cookie: string };

export const asKey = (key: string): Auth => bearer(key);
export const asSession = (cookie: string): Auth => ({ cookie });

export interface CreatedSite {
  site_id: string;
  snippet_key: string;
  domain: string;
  name: string | null;
  region: string;
  api_key: string;
  created_at: string;
}

/** POST /v1/sites and return the response. */
export function postSite(t: TestApp, auth: Auth, payload: unknown): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: '/v1/sites', headers: auth, payload: payload as object });
}

/** Adds a site and fails the test unless it was created. */
export async function addSite(
  t: TestApp,
  auth: Auth,
  domain: string,
  extra: object = {},
): Promise<CreatedSite> {
  const response = await postSite(t, auth, { domain, ...extra });
  if (response.statusCode !== 201) throw new Error(`site creation failed: ${response.body}`);
  return response.json();
}

/** The internal UUID of a site, read from the database (no API response to a key carries it). */
export async function siteUuid(t: TestApp, snippetKey: string): Promise<string> {
  const row = await t.database.db
    .selectFrom('sites')
    .select('id')
    .where('snippet_key', '=', snippetKey)
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface Person {
  userId: string;
  cookie: string;
  /** A key with every scope, minted by this person. */
  apiKey: string;
}

/** Adds a member (or admin) to the owner's account; they sign in and mint an all-scope key. */
export async function addPerson(
  t: TestApp,
  owner: Owner,
  role: 'admin' | 'member',
  email: string,
): Promise<Person> {
  const password = 'a long enough password';
  const added = await t.request({
    method: 'POST',
    url: '/v1/account/members',
    headers: { cookie: owner.cookie },
    payload: { email, password, role },
  });
  if (added.statusCode !== 201) throw new Error(`adding a member failed: ${added.body}`);
  const cookie = await login(t, { email, password });
  const { api_key } = await mintKey(t, cookie, { scopes: ALL_SCOPES });
  return { userId: added.json().member.user_id, cookie, apiKey: api_key };
}

/** A second account with its own admin, session and all-scope key, inserted directly. */
export async function addOtherAccount(t: TestApp, email = 'rival@example.net'): Promise<Owner> {
  const { accountId, userId, password } = await insertAdmin(t, email);
  const cookie = await login(t, { email, password });
  const { api_key } = await mintKey(t, cookie, { scopes: ALL_SCOPES });
  return { accountId, userId, apiKey: api_key, cookie };
}

/**
 * An account of its own for one test of a file that shares one app: as `addOtherAccount` under a
 * new email, but signed in through the sessions service, so that a file's many accounts do not
 * spend the login route's per-address budget.
 */
export async function addAccount(t: TestApp): Promise<Owner> {
  const email = `owner-${newId()}@example.net`;
  const { accountId, userId, password } = await insertAdmin(t, email);
  const { token } = await t.app.services.sessions.login(email, password);
  const cookie = `tt_session=${token}`;
  const { api_key } = await mintKey(t, cookie, { scopes: ALL_SCOPES });
  return { accountId, userId, apiKey: api_key, cookie };
}

async function insertAdmin(t: TestApp, email: string) {
  const accountId = newId();
  const userId = newId();
  const password = 'another long password';
  const now = t.clock.now();
  const db = t.database.db;
  await db
    .insertInto('accounts')
    .values({ id: accountId, name: 'Rival', site_limit: 10, created_at: now })
    .execute();
  await db
    .insertInto('users')
    .values({ id: userId, email, password_hash: await hashPassword(password), created_at: now })
    .execute();
  await db
    .insertInto('memberships')
    .values({ account_id: accountId, user_id: userId, role: 'admin', created_at: now })
    .execute();
  return { accountId, userId, password };
}

/** Changes account columns the API does not expose yet (plan, cap, region, pending deletion). */
export function updateAccount(
  t: TestApp,
  accountId: string,
  values: { plan?: string; site_limit?: number; region?: 'us' | 'eu'; pending_deletion_at?: Date | null },
) {
  return t.database.db.updateTable('accounts').set(values).where('id', '=', accountId).execute();
}
