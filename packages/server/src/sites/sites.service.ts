/**
 * Rules for sites (interface §4.2, §5): list, read, create, update; deletion, restore and
 * erasure are composed in from site-deletion.ts and site-erasure.ts.
 */
import type { Kysely, Transaction, Updateable } from 'kysely';
import { requireAdmin } from '../access/admin.js';
import { coversSite, type Principal, requireScope } from '../access/principal.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { isUniqueViolation } from '../db/errors.js';
import type { AttributionModel, DB, Region, SitesTable } from '../db/types.js';
import { badInput, forbidden, notFound } from '../http/errors.js';
import type { KeysService } from '../keys/keys.service.js';
import { type Clock, HOUR_MS } from '../lib/clock.js';
import { newId, newSnippetKey } from '../lib/ids.js';
import { isSupportedCurrency } from '../rates/currencies.js';
import { cookieApexProblem, suggestCookieApex } from './domains.js';
import { requireSite } from './site-access.js';
import { createSiteDeletion } from './site-deletion.js';
import { createSiteErasure, type SiteErasureInClickHouse } from './site-erasure.js';
import { findIntakeSite, readIntakeStates } from './site-intake.js';
import { recentRefusals } from './site-refusals.js';
import {
  assertRoomForActiveSite,
  domainTaken,
  refuseIfAccountPendingDeletion,
  requireHostname,
} from './site-rules.js';
import { presentDashboardSite, presentSite } from './site-view.js';
import { findSiteById, insertSite, listSites, lockAccountSites, updateActiveSite } from './sites.store.js';

export interface CreateSiteInput {
  domain: string;
  name?: string | null;
  region?: Region;
  currency?: string;
}

export interface UpdateSiteInput {
  name?: string | null;
  attribution_model?: AttributionModel;
  cookie_apex_domain?: string | null;
  currency?: string;
  /** null: the default; the schema checks the range, the database again. */
  events_retention_days?: number | null;
  visits_retention_days?: number | null;
}

export interface SitesDeps {
  db: Kysely<DB>;
  clock: Clock;
  accounts: Pick<AccountsService, 'getAccount'>;
  keys: Pick<KeysService, 'mint'>;
  /** ClickHouse's copy of the traffic, when on: site erasure deletes there too. */
  clickhouse?: SiteErasureInClickHouse;
}

/** The scopes of the key a new site comes with (§4.2): read its stats, send it events. */
const SITE_KEY_SCOPES = ['stats:read', 'ingest:write'] as const;

/**
 * A currency chosen by hand, at creation or by update: a supported code, stored upper-case, with
 * `currency_chosen` set even when it equals the default, so a processor connection never
 * overrides it (§4.2 rules).
 */
function chosenCurrency(input: string) {
  const code = input.toUpperCase();
  if (!isSupportedCurrency(code)) throw badInput('currency', `currency ${code} is not a supported currency`);
  return { currency: code, currency_chosen: true };
}

export function createSitesService(deps: SitesDeps) {
  const { db, clock, accounts, keys } = deps;

  /** The changes a PATCH asks for, checked against the site; empty strings clear. */
  function changesFor(domain: string, input: UpdateSiteInput): Updateable<SitesTable> {
    const changes: Updateable<SitesTable> = {};
    if (input.name !== undefined) changes.name = input.name || null;
    if (input.attribution_model !== undefined) changes.attribution_model = input.attribution_model;
    if (input.cookie_apex_domain !== undefined) {
      const apex = input.cookie_apex_domain
        ? requireHostname('cookie_apex_domain', input.cookie_apex_domain)
        : null;
      const problem = apex === null ? null : cookieApexProblem(domain, apex);
      if (problem) throw badInput('cookie_apex_domain', `cookie_apex_domain ${problem}`);
      changes.cookie_apex_domain = apex;
    }
    if (input.currency !== undefined) Object.assign(changes, chosenCurrency(input.currency));
    if (input.events_retention_days !== undefined)
      changes.events_retention_days = input.events_retention_days;
    if (input.visits_retention_days !== undefined)
      changes.visits_retention_days = input.visits_retention_days;
    if (Object.keys(changes).length === 0) {
      throw badInput(
        'body',
        'Send at least one of name, attribution_model, cookie_apex_domain, currency, events_retention_days, visits_retention_days',
      );
    }
    return changes;
  }

  return {
    /** Whether the site behind a snippet key takes data (site-intake.ts); undefined when unknown. */
    findIntakeSite(snippetKey: string) {
      return findIntakeSite(db, snippetKey);
    },

    /** The same, for writers that check inside their own transaction. */
    readIntakeStates(trx: Transaction<DB>, siteIds: string[]) {
      return readIntakeStates(trx, siteIds);
    },

    /** The active site behind a snippet key, if the principal covers it; 404 otherwise (never 403). */
    async getReachableSite(principal: Principal, snippetKey: string) {
      return requireSite(db, principal, snippetKey, { includeScheduled: false });
    },

    /**
     * The site row behind `ref` if the principal covers it, 404 otherwise. A string is what a
     * caller sent (snippet key; a session may also send the UUID); `{id}` is an internal UUID
     * from a trusted source (a decrypted visitor handle), accepted for keys too.
     */
    async resolveSite(
      principal: Principal,
      ref: string | { id: string },
      options: { includeScheduled: boolean },
    ) {
      if (typeof ref === 'string') return requireSite(db, principal, ref, options);
      const site = await findSiteById(db, ref.id);
      if (!site || !coversSite(principal, site)) throw notFound('Site');
      if (site.deleted_at !== null && !options.includeScheduled) throw notFound('Site');
      return site;
    },

    /** Newest first; a key restricted to one site sees only that site. */
    async list(principal: Principal, options: { includeDeleted: boolean }) {
      const siteId = principal.kind === 'key' ? principal.siteId : null;
      const rows = await listSites(db, principal.accountId, {
        siteId,
        includeDeleted: options.includeDeleted,
      });
      return rows.map(presentSite);
    },

    async get(principal: Principal, ref: string) {
      return presentSite(await requireSite(db, principal, ref, { includeScheduled: false }));
    },

    /** Hits of the last hour the ingest refused for the site (a bot's user agent), by reason. */
    async recentRefusals(principal: Principal, ref: string) {
      const site = await requireSite(db, principal, ref, { includeScheduled: false });
      const now = clock.now();
      return {
        since: new Date(now.getTime() - HOUR_MS).toISOString(),
        refusals: await recentRefusals(db, site.id, now),
      };
    },

    /** Every site of the account, scheduled ones included, with internal UUIDs: sessions only. */
    async listForDashboard(principal: Principal) {
      if (principal.kind !== 'session') throw forbidden('The dashboard site list needs a dashboard session');
      const rows = await listSites(db, principal.accountId, { siteId: null, includeDeleted: true });
      return rows.map(presentDashboardSite);
    },

    async create(principal: Principal, input: CreateSiteInput) {
      for (const scope of ['credentials:write', 'stats:read', 'ingest:write'] as const)
        requireScope(principal, scope);
      if (principal.kind === 'key' && principal.siteId !== null) {
        throw forbidden('A key restricted to one site cannot create sites');
      }
      await requireAdmin(db, principal);
      const domain = requireHostname('domain', input.domain);
      const currency = input.currency === undefined ? {} : chosenCurrency(input.currency);
      const account = await accounts.getAccount(principal.accountId);
      refuseIfAccountPendingDeletion(account);
      const site = {
        id: newId(),
        account_id: account.id,
        snippet_key: newSnippetKey(),
        domain,
        name: input.name || null,
        region: input.region ?? account.region ?? 'us',
        ...currency,
        created_at: clock.now(),
      };
      let apiKey: string;
      try {
        apiKey = await db.transaction().execute(async (trx) => {
          await lockAccountSites(trx, account.id);
          await assertRoomForActiveSite(trx, account, domain, 403);
          await insertSite(trx, site);
          const key = await keys.mint(trx, {
            accountId: account.id,
            createdBy: principal.kind === 'session' ? principal.userId : principal.createdBy,
            name: `Site key for ${domain}`.slice(0, 100),
            scopes: SITE_KEY_SCOPES,
            siteId: site.id,
            expiresAt: null,
          });
          return key.plaintext;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw domainTaken();
        throw error;
      }
      return {
        site_id: site.snippet_key,
        snippet_key: site.snippet_key,
        domain: site.domain,
        name: site.name,
        region: site.region,
        cookie_apex_domain: null,
        suggested_cookie_apex_domain: suggestCookieApex(site.domain),
        api_key: apiKey,
        created_at: site.created_at.toISOString(),
      };
    },

    /** Any member may update settings (§5.4); a site scheduled for deletion answers 404. */
    async update(principal: Principal, ref: string, input: UpdateSiteInput) {
      const site = await requireSite(db, principal, ref, { includeScheduled: false });
      // Shorter retention deletes data for good, as deleting the site does: admins only.
      if (input.events_retention_days !== undefined || input.visits_retention_days !== undefined)
        await requireAdmin(db, principal);
      const updated = await updateActiveSite(db, site.id, changesFor(site.domain, input));
      if (!updated) throw notFound('Site');
      return presentSite(updated);
    },

    ...createSiteDeletion({ db, clock, accounts }),
    ...createSiteErasure({ db, clock, clickhouse: deps.clickhouse }),
  };
}

export type SitesService = ReturnType<typeof createSitesService>;
