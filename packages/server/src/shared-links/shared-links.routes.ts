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
  404: codedErrorSchema,
  409: codedErrorSchema,
  422: codedErrorSchema,
};
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
        summary: 'The site’s shared links, newest first (never their tokens)',
        params: siteParams,
        response: { 200: z.object({ shared_links: z.array(linkSchema) }), ...errors },
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
        summary: 'Make a public, read-only link to the site’s traffic reports; its URL is shown only here',
        description:
          'Whoever has the URL (and the password, when one is set) sees the traffic reports of this site: visitors, ' +
          'visits, pageviews, bounce rate and duration by time, source, page, place and device, and who is on the ' +
          'site now. Never goals, conversions, revenue, people or settings. The token is in the URL’s fragment, so ' +
          'it never reaches a server log. At most 20 links that are not revoked per site (409 ' +
          '`shared_link_limit_reached`).',
        params: siteParams,
        body: z.strictObject({
          label: z.string().trim().max(100).optional().describe('Words to recognise the link by'),
          password: z.string().min(8).max(1024).optional().describe('Asked for before the reports show'),
        }),
        response: { 201: linkSchema.extend({ url: z.string().describe('Shown once') }), ...errors },
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
        summary: 'Revoke a shared link: it and every view opened with it stop working at once',
        params: siteParams.extend({ linkId: uuidParam }),
        response: { 204: z.null().describe('Revoked'), ...errors },
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
        summary: 'Open a shared link: the site’s public facts and an access token for its traffic reports',
        description:
          'No credential: the link’s token is the credential. Send `password` when the link has one (401 ' +
          '`password_required`, 401 `invalid_password`). The `access_token` (12 hours) goes as ' +
          '`Authorization: Bearer` to `POST /v1/stats/query` (traffic metrics only) and `GET /v1/stats/realtime`, ' +
          'with `site.id` as `site_id`. An unknown or revoked link, or one whose site is scheduled for deletion, is ' +
          '404 `invalid_link`.',
        body: z.strictObject({
          token: z.string().min(1).max(200).describe('The `tts_…` part of the link, after `#`'),
          password: z.string().min(1).max(1024).optional(),
        }),
        response: {
          200: z.object({
            access_token: z.string(),
            expires_at: z.string(),
            site: z.object({
              id: z.string().describe('The site’s snippet key'),
              name: z.string().nullable(),
              domain: z.string(),
              currency: z.string(),
            }),
          }),
          ...errors,
        },
      },
    },
    async (request) => sharedLinks.open(request.body),
  );
}
