/**
 * Shared links of a site (`/v1/sites/{siteId}/shared-links`, DESIGN.md §9) and the public
 * opening of one (`POST /v1/shared-links/open`), which the shared dashboard calls.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema, uuidParam } from '../http/schemas.js';
import { siteParams } from '../sites/sites.schemas.js';
import {
  CREATE_LINK_EXAMPLE,
  CREATED_LINK_EXAMPLE,
  LINK_ID_EXAMPLE,
  LINK_LIST_EXAMPLE,
  OPEN_LINK_EXAMPLE,
  OPENED_LINK_EXAMPLE,
} from './shared-links.examples.js';
import type { SharedLinksService } from './shared-links.service.js';

const linkSchema = z.object({
  id: z.uuid(),
  label: z.string(),
  prefix: z.string().describe('The first characters of the link’s token, to tell links apart'),
  has_password: z.boolean(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
const errors = {
  400: codedErrorSchema,
  401: codedErrorSchema,
  403: codedErrorSchema,
  422: codedErrorSchema,
};
const siteNotFound = codedErrorSchema.describe(
  'No such site, a site the credential does not cover, or one scheduled for deletion',
);
const WHO_MANAGES = 'Needs `config:write` (any member of the account) on a site the credential covers.';
const manage = {
  area: 'sites',
  auth: { accepts: ['key', 'session'], scope: 'config:write' },
  limits: { perCredential: 60, credentialGroup: 'shared-links' },
} as const;

export function registerSharedLinkRoutes(
  app: FastifyInstance,
  { sharedLinks }: { sharedLinks: SharedLinksService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/sites/:siteId/shared-links';

  r.get(
    base,
    {
      config: manage,
      schema: {
        tags: ['sites'],
        operationId: 'listSharedLinks',
        summary: 'The site’s shared links, newest first (never their tokens)',
        description: `The site's shared links, revoked ones included, newest first; never their URLs. ${WHO_MANAGES}`,
        params: siteParams,
        response: {
          200: z
            .object({ shared_links: z.array(linkSchema) })
            .meta({ description: 'The site’s shared links', examples: [LINK_LIST_EXAMPLE] }),
          ...errors,
          404: siteNotFound,
        },
      },
    },
    async (request) => ({
      shared_links: await sharedLinks.list(principalOf(request), request.params.siteId),
    }),
  );

  r.post(
    base,
    {
      config: manage,
      schema: {
        tags: ['sites'],
        operationId: 'createSharedLink',
        summary: 'Make a public, read-only link to the site’s traffic reports; its URL is shown only here',
        description:
          'Whoever has the URL (and the password, when one is set) sees the traffic reports of this site: visitors, ' +
          'visits, pageviews, bounce rate and duration by time, source, page, place and device, and who is on the ' +
          'site now. Never goals, conversions, revenue, people or settings. The token is in the URL’s fragment, so ' +
          'it never reaches a server log. At most 20 links that are not revoked per site (409 ' +
          '`shared_link_limit_reached`). ' +
          WHO_MANAGES,
        params: siteParams,
        body: z
          .strictObject({
            label: z.string().trim().max(100).optional().describe('Words to recognise the link by'),
            password: z.string().min(8).max(1024).optional().describe('Asked for before the reports show'),
          })
          .meta({ examples: [CREATE_LINK_EXAMPLE] }),
        response: {
          201: linkSchema
            .extend({ url: z.string().describe('Shown once') })
            .meta({ description: 'The new link, with its URL', examples: [CREATED_LINK_EXAMPLE] }),
          ...errors,
          404: siteNotFound,
          409: codedErrorSchema.describe(
            '`shared_link_limit_reached`: the site has 20 links that are not revoked; revoke one first',
          ),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await sharedLinks.create(principalOf(request), request.params.siteId, request.body)),
  );

  r.delete(
    `${base}/:linkId`,
    {
      config: manage,
      schema: {
        tags: ['sites'],
        operationId: 'revokeSharedLink',
        summary: 'Revoke a shared link: it and every view opened with it stop working at once',
        description:
          'The link and every access token opened with it stop working at once; the link stays listed with ' +
          `\`revoked_at\`. ${WHO_MANAGES}`,
        params: siteParams.extend({
          linkId: uuidParam.meta({ description: 'The shared link’s `id`', examples: [LINK_ID_EXAMPLE] }),
        }),
        response: {
          204: z.null().describe('Revoked'),
          ...errors,
          404: codedErrorSchema.describe(
            'No such site within the credential’s reach, or no link with this id on it that is still active',
          ),
        },
      },
    },
    async (request, reply) => {
      await sharedLinks.revoke(principalOf(request), request.params.siteId, request.params.linkId);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/v1/shared-links/open',
    {
      config: { area: 'sites', limits: { perIp: 30, ipGroup: 'shared-link-open' } },
      schema: {
        tags: ['sites'],
        operationId: 'openSharedLink',
        summary: 'Open a shared link: the site’s public facts and an access token for its traffic reports',
        description:
          'No credential: the link’s token is the credential. Send `password` when the link has one (401 ' +
          '`password_required`, 401 `invalid_password`). The `access_token` (12 hours) goes as ' +
          '`Authorization: Bearer` to `POST /v1/stats/query` (traffic metrics only) and `GET /v1/stats/realtime`, ' +
          'with `site.id` as `site_id`. An unknown or revoked link, or one whose site is scheduled for deletion, is ' +
          '404 `invalid_link`.',
        body: z
          .strictObject({
            token: z.string().min(1).max(200).describe('The `tts_…` part of the link, after `#`'),
            password: z.string().min(1).max(1024).optional(),
          })
          .meta({ examples: [OPEN_LINK_EXAMPLE] }),
        response: {
          200: z
            .object({
              access_token: z.string(),
              expires_at: z.string(),
              site: z.object({
                id: z.string().describe('The site’s snippet key'),
                name: z.string().nullable(),
                domain: z.string(),
                currency: z.string(),
              }),
            })
            .meta({ description: 'The link is open', examples: [OPENED_LINK_EXAMPLE] }),
          400: codedErrorSchema,
          401: codedErrorSchema.describe(
            '`password_required`: the link has a password and none was sent; `invalid_password`: wrong password',
          ),
          404: codedErrorSchema.describe(
            '`invalid_link`: the link is unknown or revoked, or its site is scheduled for deletion',
          ),
          422: codedErrorSchema,
        },
      },
    },
    async (request) => sharedLinks.open(request.body),
  );
}
