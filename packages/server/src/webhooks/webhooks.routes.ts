/**
 * `/v1/sites/{siteId}/webhooks` (interface §4.3). Errors answer in the webhooks area's shape
 * (§7.3, http/error-bodies.ts). Reads need `stats:read`; create and rotate-secret
 * `credentials:write`; update, delete and test `config:write`. Per credential: 120 reads and
 * 60 writes a minute; test pings have their own cap per endpoint (webhooks.service.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Scope } from '../access/principal.js';
import { type CredentialKind, principalOf } from '../http/authenticate.js';
import { AppError } from '../http/errors.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { documentWebhookEvents } from './webhook-events.docs.js';
import {
  createdWebhookSchema,
  createWebhookBody,
  deliveriesPageSchema,
  deliveriesQuery,
  emptyBody,
  rotatedSchema,
  testResultSchema,
  updatedWebhookSchema,
  updateWebhookBody,
  WEBHOOK_ERRORS,
  webhookListSchema,
  webhookParams,
  webhookSiteParams,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

const READS: RouteLimits = { perCredential: 120, credentialGroup: 'webhooks:read' };
const WRITES: RouteLimits = { perCredential: 60, credentialGroup: 'webhooks:write' };
const BOTH: readonly CredentialKind[] = ['key', 'session'];
const routeConfig = (scope: Scope, limits: RouteLimits) =>
  ({ area: 'webhooks', auth: { accepts: BOTH, scope }, limits }) as const;
const tags = ['webhooks'];
const SITE_OUT_OF_REACH =
  'The site is named by `siteId`; a site the credential cannot reach, or one inside its deletion window, is 403 `Forbidden`.';
const UNKNOWN_WEBHOOK =
  'An unknown webhook id on the site is 404 (`{statusCode, message}`, no `error` field).';

export function registerWebhookRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhooksService }) {
  if (webhooks.allowsPrivateTargets) {
    app.log.warn(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS=true: webhooks may reach loopback and private addresses. For tests only; unsafe in production',
    );
  }
  app.addHook('onClose', async () => webhooks.close());
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/sites/:siteId/webhooks';
  const one = `${base}/:webhookId`;

  r.get(
    base,
    {
      config: routeConfig('stats:read', READS),
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: "The site's webhook endpoints, newest first, without secrets",
        description: `Every endpoint of the site with its event types and verification status; needs \`stats:read\`. ${SITE_OUT_OF_REACH}`,
        params: webhookSiteParams,
        response: { 200: webhookListSchema, ...WEBHOOK_ERRORS },
      },
    },
    async (request) => ({ webhooks: await webhooks.list(principalOf(request), request.params.siteId) }),
  );

  r.post(
    base,
    {
      config: { ...routeConfig('credentials:write', WRITES), swaggerTransform: documentWebhookEvents },
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Add a webhook endpoint; the signing secret is shown once',
        description:
          'Needs `credentials:write`. The url must be https and reach a public address (422 otherwise). Sends one ' +
          'signed `webhook.ping` during creation: `verified` on a 2xx, else `unverified` (created either way). ' +
          'The secret is shown here and on rotation only. At most 10 endpoints per site (409 ' +
          `\`webhook_limit_reached\`). ${SITE_OUT_OF_REACH}`,
        params: webhookSiteParams,
        body: createWebhookBody,
        response: { 201: createdWebhookSchema, ...WEBHOOK_ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await webhooks.create(principalOf(request), request.params.siteId, request.body)),
  );

  r.patch(
    one,
    {
      config: routeConfig('config:write', WRITES),
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Change url, event_types or enabled (at least one). A new url makes the endpoint unverified',
        description:
          'Needs `config:write`. Omitted fields stay; an empty body or a bad url is 422. A disabled endpoint ' +
          `receives nothing but can still be tested. ${UNKNOWN_WEBHOOK}`,
        params: webhookParams,
        body: updateWebhookBody,
        response: { 200: updatedWebhookSchema, ...WEBHOOK_ERRORS },
      },
    },
    async (request) =>
      webhooks.update(principalOf(request), request.params.siteId, request.params.webhookId, request.body),
  );

  r.delete(
    one,
    {
      config: routeConfig('config:write', WRITES),
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Remove the endpoint and its delivery log at once; no restore',
        description: `Needs \`config:write\`. Nothing more is delivered to it. ${UNKNOWN_WEBHOOK}`,
        params: webhookParams,
        response: { 204: z.null().describe('Deleted'), ...WEBHOOK_ERRORS },
      },
    },
    async (request, reply) => {
      await webhooks.remove(principalOf(request), request.params.siteId, request.params.webhookId);
      return reply.code(204).send(null);
    },
  );

  r.get(
    `${one}/deliveries`,
    {
      config: routeConfig('stats:read', READS),
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'The delivery log, newest first, kept 30 days; page with `before` = `next_before`',
        description:
          'Needs `stats:read`. Every delivery with its status, attempts, last answer and the body sent; test ' +
          `pings appear as \`webhook.ping\`. Filter by \`status\`; page with \`before\`. ${UNKNOWN_WEBHOOK}`,
        params: webhookParams,
        querystring: deliveriesQuery,
        response: { 200: deliveriesPageSchema, ...WEBHOOK_ERRORS },
      },
    },
    async (request) =>
      webhooks.listDeliveries(
        principalOf(request),
        request.params.siteId,
        request.params.webhookId,
        request.query,
      ),
  );

  r.post(
    `${one}/test`,
    {
      config: routeConfig('config:write', WRITES),
      schema: {
        operationId: 'testWebhook',
        tags,
        summary: 'Send one signed webhook.ping and report how the endpoint answered',
        description:
          'Needs `config:write`. One attempt, never retried, also on a disabled endpoint; a 2xx makes the ' +
          'endpoint `verified`, a failure turns `verified` into `failing`. At most 5 a minute per endpoint: ' +
          `beyond that 429 with \`Retry-After\`, nothing sent and \`verification_status\` unchanged. ${UNKNOWN_WEBHOOK}`,
        params: webhookParams,
        body: emptyBody,
        response: {
          200: testResultSchema,
          ...WEBHOOK_ERRORS,
          429: WEBHOOK_ERRORS[429].describe(
            '`{statusCode: 429, message}`: over 5 test pings a minute on this endpoint (or the credential’s budget); nothing was sent',
          ),
        },
      },
    },
    async (request, reply) => {
      try {
        return await webhooks.test(principalOf(request), request.params.siteId, request.params.webhookId);
      } catch (error) {
        const retryAfter = error instanceof AppError ? error.details.extra?.retry_after_seconds : undefined;
        if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
        throw error;
      }
    },
  );

  r.post(
    `${one}/rotate-secret`,
    {
      config: routeConfig('credentials:write', WRITES),
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Replace the signing secret; the old one stops verifying at once, with no overlap',
        description: `Needs \`credentials:write\`. The new secret is shown only in this answer. ${UNKNOWN_WEBHOOK}`,
        params: webhookParams,
        body: emptyBody,
        response: { 200: rotatedSchema, ...WEBHOOK_ERRORS },
      },
    },
    async (request) =>
      webhooks.rotateSecret(principalOf(request), request.params.siteId, request.params.webhookId),
  );
}
