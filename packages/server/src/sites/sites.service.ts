/** Rules for sites. */
import type { Kysely } from 'kysely';
import { coversSite, type Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { notFound } from '../http/errors.js';
import { findSiteBySnippetKey } from './sites.store.js';

export function createSitesService({ db }: { db: Kysely<DB> }) {
  return {
    /** The active site behind a snippet key, if the principal covers it; 404 otherwise (never 403). */
    async getReachableSite(principal: Principal, snippetKey: string) {
      const site = await findSiteBySnippetKey(db, snippetKey);
      if (!site || site.deleted_at !== null || !coversSite(principal, site)) throw notFound('Site');
      return site;
    },
  };
}

export type SitesService = ReturnType<typeof createSitesService>;
