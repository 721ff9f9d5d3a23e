/**
 * `touchtrail snippet`: the tag to paste into a site's pages, composed as the dashboard does
 * (packages/dashboard/src/pages/sites/Install.tsx): the server's `/t.js`, the snippet key, and
 * `data-cookie-domain` once a cookie domain is confirmed.
 */
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import { example } from '../options.js';

export function snippetOf(
  serverUrl: string,
  site: { snippet_key: string; cookie_apex_domain: string | null },
): string {
  const cookieDomain = site.cookie_apex_domain ? ` data-cookie-domain="${site.cookie_apex_domain}"` : '';
  return `<script defer src="${serverUrl}/t.js" data-site="${site.snippet_key}"${cookieDomain}></script>`;
}

export function registerSnippet(program: Command) {
  program
    .command('snippet')
    .argument('[site]', 'snippet key (default --site)')
    .description('Print the install snippet of a site')
    .addHelpText(
      'after',
      example('touchtrail snippet --site ttid_4kQp2ZrT9xVbN7mWcLs3Ed >> partials/head.html'),
    )
    .action(
      action(async (ctx, _options, args) => {
        const site = await unwrap(
          ctx.client.GET('/v1/sites/{siteId}', { params: { path: { siteId: args[0] ?? ctx.site() } } }),
        );
        const snippet = snippetOf(ctx.settings.url, site);
        ctx.print(
          { snippet, site_id: site.id, cookie_apex_domain: site.cookie_apex_domain },
          () => `${snippet}\n`,
        );
      }),
    );
}
