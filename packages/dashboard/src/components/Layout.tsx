/**
 * The frame of every signed-in page: the bar with the site switcher, theme and sign-out; on a
 * site's pages its sections, or the word that the site is unknown in place of the page.
 */
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useRoute } from 'wouter';
import { dashboardSitesQuery } from '../api/sites';
import type { Me } from '../api/types';
import { applyTheme, currentTheme, type Theme } from '../lib/theme';
import { UnknownSite, useUnknownSite } from './UnknownSite';

function SiteSwitcher({ siteId }: { siteId: string }) {
  const [, navigate] = useLocation();
  const sites = useQuery(dashboardSitesQuery);
  // A site scheduled for deletion is listed only while it is the one open.
  const live = (sites.data ?? []).filter((s) => !s.deleted_at || s.uuid === siteId);
  if (live.length < 2) return null;
  return (
    <select
      className="input"
      aria-label="Switch site"
      value={siteId}
      onChange={(event) => navigate(`/sites/${event.target.value}`)}
    >
      {live.map((site) => (
        <option key={site.uuid} value={site.uuid}>
          {site.name ?? site.domain}
        </option>
      ))}
    </select>
  );
}

function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(currentTheme);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="button"
      onClick={() => {
        applyTheme(next, true);
        setTheme(next);
      }}
    >
      {next === 'dark' ? 'Dark' : 'Light'}
      <span className="wide-only"> theme</span>
    </button>
  );
}

/** `also`: paths opened from the section that keep it highlighted (a person comes from Goals). */
const SITE_SECTIONS: { path: string; label: string; also?: string }[] = [
  { path: '', label: 'Overview' },
  { path: '/goals', label: 'Goals', also: '/people' },
  { path: '/funnels', label: 'Funnels' },
  { path: '/revenue', label: 'Revenue' },
  { path: '/ai', label: 'AI crawlers' },
  { path: '/settings', label: 'Settings' },
];

/** The sections of a site; the view's range and filters travel to the report sections. */
function SiteNav({ siteId }: { siteId: string }) {
  const [location] = useLocation();
  const base = `/sites/${siteId}`;
  const opens = (path: string | undefined) => path !== undefined && location.startsWith(base + path);
  const current = SITE_SECTIONS.find((s) => s.path !== '' && (opens(s.path) || opens(s.also)))?.path ?? '';
  const more = useScrollCue(location);
  return (
    <div className="site-nav-frame" data-more={more.side}>
      <nav className="site-nav" aria-label="Site" ref={more.ref}>
        {SITE_SECTIONS.map((section) => (
          <Link
            key={section.path}
            href={base + section.path}
            aria-current={section.path === current ? 'page' : undefined}
          >
            {section.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}

/**
 * Which sides of a sideways-scrolling row have more to see (`before`, `after`, `both`), for the
 * fade that says so; the current tab is scrolled into view when the page changes.
 */
function useScrollCue(location: string) {
  const ref = useRef<HTMLElement>(null);
  const [side, setSide] = useState<string | undefined>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page moves the current tab, so scroll and measure again
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    row
      .querySelector<HTMLElement>('[aria-current="page"]')
      ?.scrollIntoView({ block: 'nearest', inline: 'center' });
    const measure = () => {
      const before = row.scrollLeft > 1;
      const after = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      setSide(before && after ? 'both' : before ? 'before' : after ? 'after' : undefined);
    };
    measure();
    row.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    return () => {
      row.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
    };
  }, [location]);
  return { ref, side };
}

export function Layout({ me, children }: { me: Me; children: ReactNode }) {
  const [onSite, params] = useRoute<{ siteId: string }>('/sites/:siteId/*?');
  const siteId = onSite && params.siteId !== 'new' ? params.siteId : undefined;
  const sites = useQuery(dashboardSitesQuery);
  const unknown = useUnknownSite(siteId, sites.data);
  // One way out for every session: it ends here, and at the provider too when it began there.
  const signOut = () => window.location.assign('/v1/auth/oidc/logout');

  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/sites" className="brand">
          <img src="/favicon.svg" alt="" />
          <span className="brand-name">Touchtrail</span>
        </Link>
        {siteId && !unknown && <SiteSwitcher siteId={siteId} />}
        <span className="spacer" />
        <Link href="/account" className="button" title={me.user.email}>
          Account
        </Link>
        <ThemeToggle />
        <button type="button" className="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      {siteId && !unknown && <SiteNav siteId={siteId} />}
      <div id="content">{unknown ? <UnknownSite /> : children}</div>
    </>
  );
}
