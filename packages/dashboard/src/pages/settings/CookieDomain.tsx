/**
 * The domain the identity cookies are scoped to: off (host-only) until confirmed, never applied
 * by itself. A change alters the snippet, so the new snippet is shown right after it.
 */
import { useId, useState } from 'react';
import type { Site } from '../../api/types';
import { FormError } from '../../components/Form';
import { Snippet } from '../sites/Install';
import { useUpdateSite } from './use-update-site';

export function CookieDomain({ siteId, site }: { siteId: string; site: Site }) {
  const id = useId();
  const save = useUpdateSite(siteId);
  const [typed, setTyped] = useState('');
  const [changed, setChanged] = useState(false);
  const set = (value: string | null) =>
    save.mutate(
      { cookie_apex_domain: value },
      {
        onSuccess: () => {
          setChanged(true);
          setTyped('');
        },
      },
    );
  const suggested = site.suggested_cookie_apex_domain;
  return (
    <section className="card" aria-labelledby="cookie-title">
      <h2 id="cookie-title">Cookie domain</h2>
      <p className="small muted">
        Scoping the visitor cookie to the parent domain counts one person across its subdomains (for example{' '}
        <span className="mono">www.</span> and <span className="mono">shop.</span>) as one visitor.
      </p>
      <FormError error={save.error} />
      <p>
        {site.cookie_apex_domain ? (
          <>
            Cookies are scoped to <strong className="mono">{site.cookie_apex_domain}</strong>.
          </>
        ) : (
          'Cookies are scoped to the exact host of each page (no cookie domain set).'
        )}
      </p>
      <div className="row" style={{ marginBottom: '0.9rem' }}>
        {suggested && suggested !== site.cookie_apex_domain && (
          <button
            type="button"
            className="button primary"
            disabled={save.isPending}
            onClick={() => set(suggested)}
          >
            Use {suggested}
          </button>
        )}
        {site.cookie_apex_domain && (
          <button type="button" className="button" disabled={save.isPending} onClick={() => set(null)}>
            Clear the cookie domain
          </button>
        )}
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (typed.trim()) set(typed.trim());
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-domain`}>Another cookie domain</label>
          <div className="row">
            <input
              id={`${id}-domain`}
              name="cookie_apex_domain"
              placeholder={suggested ?? site.domain}
              aria-describedby={`${id}-hint`}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
            <button type="submit" className="button" disabled={!typed.trim() || save.isPending}>
              Set
            </button>
          </div>
          <span className="hint" id={`${id}-hint`}>
            The site's domain or one of its parents.
          </span>
        </div>
      </form>
      {changed && (
        <div className="notice" role="status" style={{ marginTop: '0.8rem' }}>
          <p style={{ marginTop: 0 }}>
            <strong>The snippet changed.</strong> Replace the one on your pages with this one.
          </p>
          <Snippet site={site} />
        </div>
      )}
    </section>
  );
}
