/**
 * Which site a `{siteId}` names for a given caller. A key sees sites only by snippet key; a
 * dashboard session may also use the internal UUID. A site outside the caller's reach answers
 * 404 exactly like a site that does not exist, so no path tells another account's sites apart.
 */
import type { Kysely } from 'kysely';
import { coversSite, type Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { badInput, notFound } from '../http/errors.js';
import { SNIPPET_KEY_PATTERN, UUID_PATTERN } from '../lib/ids.js';
import { findSiteById, findSiteBySnippetKey, type SiteRow } from './sites.store.js';

export type SiteRef = { snippetKey: string } | { id: string };

/**
 * How to look `ref` up for this caller: null when the caller may not use that form (a key
 * presenting a UUID), which the caller turns into 404. Anything neither form is a 422.
 */
export function parseSiteRef(principal: Principal, ref: string): SiteRef | null {
  if (SNIPPET_KEY_PATTERN.test(ref)) return { snippetKey: ref };
  if (UUID_PATTERN.test(ref)) return principal.kind === 'session' ? { id: ref.toLowerCase() } : null;
  throw badInput(
    'siteId',
    'siteId must be a ttid_ snippet key (or, for a dashboard session, a site UUID)',
    'params',
  );
}

/** The site behind `ref` if the caller covers it, scheduled for deletion or not. */
export async function findCoveredSite(
  db: Kysely<DB>,
  principal: Principal,
  ref: string,
): Promise<SiteRow | undefined> {
  const lookup = parseSiteRef(principal, ref);
  if (!lookup) return undefined;
  const site =
    'id' in lookup ? await findSiteById(db, lookup.id) : await findSiteBySnippetKey(db, lookup.snippetKey);
  return site && coversSite(principal, site) ? site : undefined;
}

/** The site behind `ref`, or 404; a site scheduled for deletion counts only with `includeScheduled`. */
export async function requireSite(
  db: Kysely<DB>,
  principal: Principal,
  ref: string,
  options: { includeScheduled: boolean },
): Promise<SiteRow> {
  const site = await findCoveredSite(db, principal, ref);
  if (!site || (site.deleted_at !== null && !options.includeScheduled)) throw notFound('Site');
  return site;
}
