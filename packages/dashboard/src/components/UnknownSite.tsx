/**
 * A site id in the address that names no site of the account (mistyped, another account's, or
 * erased): said as such, with the way back to the site list, instead of each panel's error.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ApiError } from '../api/http';
import { siteQuery } from '../api/sites';
import type { DashboardSite } from '../api/types';

/**
 * True once the account's site list lacks `siteId` and the site itself answers 404 (or 422 for an
 * id of the wrong shape). The site is asked for only then: a site added since the list was read
 * answers, and a site scheduled for deletion is listed, so neither is called unknown.
 */
export function useUnknownSite(siteId: string | undefined, sites: DashboardSite[] | undefined): boolean {
  const unlisted = siteId !== undefined && sites !== undefined && !sites.some((s) => s.uuid === siteId);
  const site = useQuery({ ...siteQuery(siteId ?? ''), enabled: unlisted, retry: false });
  return (
    unlisted && site.error instanceof ApiError && (site.error.status === 404 || site.error.status === 422)
  );
}

export function UnknownSite() {
  return (
    <main>
      <div className="state" role="alert">
        <h1>Site not found</h1>
        <p>This site does not exist or is not yours.</p>
        <div className="actions">
          <Link href="/sites" className="button primary">
            Go to your sites
          </Link>
        </div>
      </div>
    </main>
  );
}
