/**
 * `POST /v1/server/payments`: payments, trials, renewals and refunds reported by the site's
 * server (interface §4.4). Key only, `ingest:write`, no CORS headers at all (server to server).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import { INGEST_BODY_LIMIT_BYTES } from '../ingest/collect.routes.js';
import { paymentAcceptedSchema, paymentBodySchema, paymentErrorSchemas } from './payments.schemas.js';
import type { PaymentsService } from './payments.service.js';

/** Per key; a processor replaying a backlog of webhooks stays well inside it. */
const PAYMENTS_PER_KEY_PER_MINUTE = 6000;
/**
 * Per address, above the per-key budget: one backend often posts for several sites (keys), and
 * the default address budget (1,200) would otherwise be the real limit of every key.
 */
const PAYMENTS_PER_IP_PER_MINUTE = 12_000;

const DESCRIPTION = [
  'Needs an API key with `ingest:write`; server to server only (no CORS).',
  'Records a payment, a free trial (`amount` 0, or below the smallest unit of the currency, or `is_free_trial`), a renewal or a refund, and attributes it',
  'to a source by matching the buyer’s visits: `visitor_id` first, then the `email` hash against the',
  'person’s visits (including those before sign-in), else unattributed; look-back 30 days from `timestamp`.',
  '`amount` is in major units of `currency` (12.5 USD, 1200 JPY, 1.250 KWD) and is stored exactly as integer',
  'minor units. `email` is only hashed for matching; it is never stored or logged.',
  '',
  'Always 202 `{status, transaction_id, event_id}`: `recorded`, `trial`, `refunded`, or `duplicate` when',
  'site + `provider` + `transaction_id` is already held (durable, no expiry; concurrent identical posts',
  'create one payment). `event_id` (`pay_…`) is the payment’s id, the same in its webhooks',
  '(`conversion.attributed`, `conversion.refunded`) and in the conversion listing; a duplicate or a refund',
  'answers the id of the payment it concerns.',
  '',
  'Refunds: post again with the same `transaction_id` and `provider` and `refunded: true` (everything',
  'outstanding) or `refunded_amount` (the running total refunded so far). Only the part above what was',
  'already taken back is subtracted, never more than the payment; the same total again changes nothing',
  'and still answers `refunded`. A refund is dated when posted (or at `timestamp`), is subtracted from the',
  'source the payment was credited to, and never rewrites a past day; a day may read negative.',
  '',
  'Out of order: every post carries the payment’s `amount`, so a refund whose original was never posted',
  'records the payment (dated at the refund’s `timestamp`, or now) and its refund together and answers',
  '`refunded`; the original arriving later answers `duplicate`.',
  '',
  '503 `unavailable` means nothing was recorded: retry, and the payment is recorded once.',
].join('\n');

export function registerPaymentRoutes(app: FastifyInstance, { payments }: { payments: PaymentsService }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/server/payments',
    {
      bodyLimit: INGEST_BODY_LIMIT_BYTES,
      config: {
        area: 'payments',
        auth: { accepts: ['key'], scope: 'ingest:write' },
        limits: {
          perIp: PAYMENTS_PER_IP_PER_MINUTE,
          ipGroup: 'payments',
          perCredential: PAYMENTS_PER_KEY_PER_MINUTE,
          credentialGroup: 'payments',
        },
      },
      // Also sees failures of the authentication hook (a key lookup while the database is down).
      errorHandler: async (error) => {
        throw await payments.explainFailure(error);
      },
      schema: {
        operationId: 'recordPayment',
        tags: ['payments'],
        summary: 'Record a payment, trial, renewal or refund from your server',
        description: DESCRIPTION,
        security: [{ apiKey: [] }],
        body: paymentBodySchema,
        response: { 202: paymentAcceptedSchema, ...paymentErrorSchemas },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.kind !== 'key') throw new Error('key-only route reached without a key');
      return reply.code(202).send(await payments.record(principal, request.body));
    },
  );
}
