/**
 * Payment-processor connections (DESIGN.md §11): `/v1/sites/{siteId}/integrations` to connect,
 * list and disconnect, in the sites area's error shape; and the public receiving endpoint
 * `POST /v1/integrations/{provider}/{connectionId}`, where the processor's signature is the only
 * credential. The receiving endpoint reads the body as text: signatures cover the exact bytes.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Scope } from '../access/principal.js';
import { type CredentialKind, principalOf } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { codedErrorSchema } from '../http/schemas.js';
import { processorEventExample } from './integrations.examples.js';
import {
  connectBody,
  connectionListSchema,
  connectionParams,
  connectionSiteParams,
  createdConnectionSchema,
  receivedSchema,
  receiveParams,
} from './integrations.schemas.js';
import type { IntegrationsService } from './integrations.service.js';

const READS: RouteLimits = { perCredential: 120, credentialGroup: 'integrations:read' };
const WRITES: RouteLimits = { perCredential: 60, credentialGroup: 'integrations:write' };
const BOTH: readonly CredentialKind[] = ['key', 'session'];
const routeConfig = (scope: Scope, limits: RouteLimits) =>
  ({ area: 'sites', auth: { accepts: BOTH, scope }, limits }) as const;
const tags = ['integrations'];
/** Processors batch and retry; a connection takes up to this many deliveries a minute. */
const RECEIVES_PER_MINUTE = 1200;
/** Processor events are a few KB; Stripe's largest objects stay well below this. */
const RECEIVE_BODY_LIMIT_BYTES = 1024 * 1024;
const SITE_OUT_OF_REACH =
  'A site the credential cannot reach, or one inside its deletion window, is 404 `not_found`.';

export function registerIntegrationRoutes(
  app: FastifyInstance,
  { integrations }: { integrations: IntegrationsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/sites/:siteId/integrations';

  r.get(
    base,
    {
      config: routeConfig('stats:read', READS),
      schema: {
        operationId: 'listIntegrations',
        tags,
        summary: 'The site’s payment-processor connections, without their secrets',
        description: `Each connection with its receiving URL, last event, last error and count of events; needs \`stats:read\`. ${SITE_OUT_OF_REACH}`,
        params: connectionSiteParams,
        response: { 200: connectionListSchema },
      },
    },
    async (request) => ({
      connections: await integrations.list(principalOf(request), request.params.siteId),
    }),
  );

  r.post(
    base,
    {
      config: routeConfig('credentials:write', WRITES),
      schema: {
        operationId: 'connectIntegration',
        tags,
        summary:
          'Connect Stripe, Paddle, Lemon Squeezy or Polar; answers the URL to paste into the processor',
        description:
          'Needs `credentials:write`. Payments, trials, renewals and refunds then arrive from the processor’s ' +
          'signed webhooks at `receive_url`. One connection per processor and site: a second is 409 ' +
          '`provider_connected`. From then on `POST /v1/server/payments` with that `provider` is refused for the ' +
          'site (409 `provider_connected`), so a payment is never counted twice. The site’s currency becomes ' +
          '`default_currency` (or the first payment’s currency) unless it was set by hand. ' +
          SITE_OUT_OF_REACH,
        params: connectionSiteParams,
        body: connectBody,
        response: {
          201: createdConnectionSchema,
          409: codedErrorSchema.describe(
            '`provider_connected`: the site already has a connection to this processor',
          ),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const createdBy = principal.kind === 'session' ? principal.userId : principal.createdBy;
      const connection = await integrations.connect(
        principal,
        request.params.siteId,
        request.body,
        createdBy,
      );
      return reply.code(201).send(connection);
    },
  );

  r.delete(
    `${base}/:connectionId`,
    {
      config: routeConfig('config:write', WRITES),
      schema: {
        operationId: 'disconnectIntegration',
        tags,
        summary: 'Disconnect a processor: its receiving URL answers 404 from now on',
        description:
          'Needs `config:write`. Payments already recorded stay. The processor’s payments can then be posted to ' +
          '`POST /v1/server/payments` again. An unknown connection id is 404 `not_found`.',
        params: connectionParams,
        response: { 204: z.null().describe('Disconnected') },
      },
    },
    async (request, reply) => {
      await integrations.disconnect(principalOf(request), request.params.siteId, request.params.connectionId);
      return reply.code(204).send(null);
    },
  );

  return app.register(async (scope) => {
    // The signature covers the exact bytes: keep the body as text, whatever its content type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/v1/integrations/:provider/:connectionId',
      {
        bodyLimit: RECEIVE_BODY_LIMIT_BYTES,
        config: {
          area: 'ingest',
          pageHeaders: false,
          limits: { perIp: RECEIVES_PER_MINUTE, ipGroup: 'integrations' },
        },
        schema: {
          operationId: 'receiveProcessorEvent',
          tags,
          summary: 'Where a processor sends its webhooks (the connection’s `receive_url`)',
          description:
            'Public: the processor’s signature, checked with the connection’s signing secret, is the credential. ' +
            'An unsigned, wrongly signed or stale request is 400 `invalid_signature` and an unreadable event 400 ' +
            '`invalid_payload`; nothing is stored and the reason shows as the connection’s `last_error`. A verified ' +
            'event answers 200 once committed; an event id seen before is acknowledged (`duplicate`) and not applied ' +
            'again; an event type that carries no payment is acknowledged and ignored. An unknown or disconnected ' +
            'connection is 404; a site scheduled for deletion 429 `quota_exceeded`. On any 5xx nothing was ' +
            'recorded, and the processor retries.',
          params: receiveParams,
          body: z.unknown().meta({
            description: 'The processor’s event, exactly as it signed it (any content type; kept as text)',
            examples: [processorEventExample],
          }),
          response: {
            200: receivedSchema,
            400: codedErrorSchema.describe('`invalid_signature` or `invalid_payload`: nothing was recorded'),
            404: codedErrorSchema.describe('`not_found`: no such connection (or it was disconnected)'),
            409: codedErrorSchema.describe(
              '`conflict`: a refund described on its own arrived before its payment; nothing was recorded and the processor retries',
            ),
            413: codedErrorSchema.describe('`payload_too_large`: the body is over 1 MiB'),
            429: codedErrorSchema.describe(
              '`quota_exceeded`: the site is scheduled for deletion; or `rate_limited`',
            ),
          },
        },
      },
      async (request) =>
        integrations.receive(request.params.provider, request.params.connectionId, {
          // The content-type parser above keeps every body as text.
          rawBody: typeof request.body === 'string' ? request.body : '',
          header: (name) => {
            const value = request.headers[name];
            return Array.isArray(value) ? value.join(',') : value;
          },
        }),
    );
  });
}
