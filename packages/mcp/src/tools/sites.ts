/** `list_sites`, `get_site` (with its webhook endpoints) and `update_site`. */
import { unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, READS, type ToolSet } from '../tool-kit.js';
import { ATTRIBUTION_MODELS, type BodyOf, type QueryOf, queryFlag, siteId } from './inputs.js';

export function addSiteTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('list_sites', {
    title: 'List sites',
    description:
      'The sites this key can read, newest first: snippet key (`id`, the `site_id` every other tool takes), ' +
      'domain, name, reporting currency, attribution model, and when the snippet first reported (`verified_at`). ' +
      'Start here when you do not know the site_id.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      include_deleted: z
        .boolean()
        .optional()
        .describe('Also list sites whose deletion is scheduled; default false'),
    },
    run: async ({ include_deleted }) => {
      const listed = client.GET('/v1/sites', {
        params: {
          query: { include_deleted: queryFlag(include_deleted) } satisfies QueryOf<'/v1/sites', 'get'>,
        },
      });
      return answer(await unwrap(listed));
    },
  });

  tools.add('get_site', {
    title: 'Get a site',
    description:
      "One site's settings (domain, name, currency, attribution model, cookie domain, verification) and its " +
      'webhook endpoints (ids for test_webhook, URLs, verification status; never secrets).',
    scope: 'stats:read',
    annotations: READS,
    input: { site_id: siteId },
    run: async ({ site_id }) => {
      const [site, listed] = await Promise.allSettled([
        unwrap(client.GET('/v1/sites/{siteId}', { params: { path: { siteId: site_id } } })),
        unwrap(client.GET('/v1/sites/{siteId}/webhooks', { params: { path: { siteId: site_id } } })),
      ]);
      // The site's own refusal first: the webhooks area words an unknown site as 403 Forbidden.
      if (site.status === 'rejected') throw site.reason;
      if (listed.status === 'rejected') throw listed.reason;
      return answer({ site: site.value, webhooks: listed.value.webhooks });
    },
  });

  tools.add('update_site', {
    title: 'Update site settings',
    description:
      "Change a site's name, reporting currency, attribution model or cookie domain; fields left out stay as " +
      'they are. Changing the currency or the model changes how every money report reads. Answers the whole ' +
      'updated site.',
    scope: 'config:write',
    // Overwrites the previous values; the same call twice changes nothing more.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: {
      site_id: siteId,
      name: z
        .string()
        .max(60)
        .nullable()
        .optional()
        .describe('Display name, up to 60 characters; null clears it'),
      currency: z
        .string()
        .regex(/^[A-Za-z]{3}$/)
        .optional()
        .describe('ISO 4217 reporting currency, e.g. EUR; revenue reports convert into it'),
      attribution_model: z
        .enum(ATTRIBUTION_MODELS)
        .optional()
        .describe('How revenue and conversions are credited to sources by default'),
      cookie_apex_domain: z
        .string()
        .max(253)
        .nullable()
        .optional()
        .describe(
          'Share the visitor cookie across subdomains of this domain (the site domain or a parent); null clears',
        ),
    },
    run: async ({ site_id, name, currency, attribution_model, cookie_apex_domain }) => {
      const site = await unwrap(
        client.PATCH('/v1/sites/{siteId}', {
          params: { path: { siteId: site_id } },
          body: { name, currency, attribution_model, cookie_apex_domain } satisfies BodyOf<
            '/v1/sites/{siteId}',
            'patch'
          >,
        }),
      );
      return answer({ site });
    },
  });
}
