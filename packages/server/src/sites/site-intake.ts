/**
 * Whether a site takes new data: the one rule behind collect, server events, payments and
 * crawler hits (interface §4.2). A site scheduled for deletion records nothing and answers 429
 * `quota_exceeded` until it is restored; an unknown key is the caller's error (404, or 401
 * where the area says so). Ingest applies the same rule inside its database function
 * (sql/ingest/04_outcomes.sql, outcome `x`) and reports it through `siteSuspended()`.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import { AppError } from '../http/errors.js';
import { findSiteBySnippetKey, findSitesById } from './sites.store.js';

type Executor = Kysely<DB> | Transaction<DB>;

export function isAcceptingData(site: { deleted_at: Date | null }): boolean {
  return site.deleted_at === null;
}

export function siteSuspended(): AppError {
  return new AppError(429, 'quota_exceeded', 'This site is scheduled for deletion; it takes no new data');
}

/** The site behind a snippet key with whether it takes data; undefined for an unknown key. */
export async function findIntakeSite(db: Executor, snippetKey: string) {
  const site = await findSiteBySnippetKey(db, snippetKey);
  return site && { site, isAccepting: isAcceptingData(site) };
}

/** For writers that check inside their own transaction: each site's key and whether it takes data. */
export async function readIntakeStates(trx: Executor, siteIds: string[]) {
  const sites = await findSitesById(trx, siteIds);
  return new Map(
    sites.map((site) => [site.id, { snippetKey: site.snippet_key, isAccepting: isAcceptingData(site) }]),
  );
}
