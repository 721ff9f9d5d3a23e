/** The install snippet of a site and the live check that turns green when its first event arrives. */
import { useQuery } from '@tanstack/react-query';
import { siteQuery } from '../../api/sites';
import type { Site } from '../../api/types';
import { BotRefusals } from '../../components/BotRefusals';
import { CopyButton } from '../../components/CopyButton';
import { formatDateTime } from '../../lib/format';

export function snippetOf(site: Pick<Site, 'snippet_key' | 'cookie_apex_domain'>): string {
  const cookieDomain = site.cookie_apex_domain ? ` data-cookie-domain="${site.cookie_apex_domain}"` : '';
  return `<script defer src="${window.location.origin}/t.js" data-site="${site.snippet_key}"${cookieDomain}></script>`;
}

export function Snippet({ site }: { site: Pick<Site, 'snippet_key' | 'cookie_apex_domain'> }) {
  const snippet = snippetOf(site);
  return (
    <div>
      <p>
        Paste this into the <code>&lt;head&gt;</code> of every page of the site:
      </p>
      <textarea className="snippet" aria-label="Install snippet" readOnly rows={3} value={snippet} />
      <CopyButton text={snippet} label="Copy the snippet" />
    </div>
  );
}

/** Asks for the site every 3 seconds until `verified_at` is set. */
export function VerificationStatus({ siteId }: { siteId: string }) {
  const site = useQuery({
    ...siteQuery(siteId),
    refetchInterval: (query) => (query.state.data?.verified_at ? false : 3000),
  });
  const verifiedAt = site.data?.verified_at;
  return (
    <>
      <p className={verifiedAt ? 'status ok' : 'status'} role="status" aria-live="polite">
        <span className="dot" aria-hidden="true" />
        {verifiedAt
          ? `Receiving events since ${formatDateTime(verifiedAt)}`
          : 'Waiting for the first event… open a page of the site once the snippet is in place.'}
      </p>
      {!verifiedAt && (
        <BotRefusals siteId={siteId} live>
          Open the site in an ordinary browser: headless browsers and scripts such as curl are not counted.
        </BotRefusals>
      )}
    </>
  );
}
