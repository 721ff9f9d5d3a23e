/**
 * What callers see of a site (interface §2.4a). `id` is the snippet key: no view here carries
 * the internal UUID except the dashboard's own list, which is session-only.
 */
import { suggestCookieApex } from './domains.js';
import type { SiteRow } from './sites.store.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentSite(row: SiteRow) {
  return {
    id: row.snippet_key,
    name: row.name,
    domain: row.domain,
    snippet_key: row.snippet_key,
    region: row.region,
    attribution_model: row.attribution_model,
    cookie_apex_domain: row.cookie_apex_domain,
    // Recomputed on every read, so an update of the Public Suffix List shows up at once.
    suggested_cookie_apex_domain: suggestCookieApex(row.domain),
    currency: row.currency,
    created_at: row.created_at.toISOString(),
    verified_at: iso(row.verified_at),
    deleted_at: iso(row.deleted_at),
    deletion_effective_at: iso(row.deletion_effective_at),
    events_retention_days: row.events_retention_days,
    visits_retention_days: row.visits_retention_days,
  };
}

export type SiteView = ReturnType<typeof presentSite>;

/** The dashboard's list entry: the one place the internal UUID is shown (to a session only). */
export function presentDashboardSite(row: SiteRow) {
  return {
    uuid: row.id,
    snippet_key: row.snippet_key,
    domain: row.domain,
    name: row.name,
    deleted_at: iso(row.deleted_at),
  };
}
