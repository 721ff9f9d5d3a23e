/**
 * Payment-processor connections (DESIGN.md §11): connecting a processor to a site,
 * listing and removing connections, and receiving the processor's signed webhooks. A received
 * event is verified, read into payment facts, and written through the same path as
 * `POST /v1/server/payments`, in one transaction with the record of its event id: a 2xx means
 * committed, and a replay is acknowledged without being applied again.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Principal } from '../access/principal.js';
import { retryConflicts } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError, badInput } from '../http/errors.js';
import type { IngestService } from '../ingest/ingest.service.js';
import type { Clock } from '../lib/clock.js';
import { newId, UUID_PATTERN } from '../lib/ids.js';
import { toMajorUnits } from '../lib/money.js';
import { type PaymentInput, writePayment } from '../payments/payment-write.js';
import { isSupportedCurrency } from '../rates/currencies.js';
import { lockPayment } from '../revenue/revenue-ledger.js';
import { readIntakeStates, siteSuspended } from '../sites/site-intake.js';
import type { SitesService } from '../sites/sites.service.js';
import { createSecretBox, openSecret } from '../webhooks/webhook-secrets.js';
import { presentConnection } from './connection-view.js';
import * as store from './connections.store.js';
import {
  PayloadError,
  type PaymentFacts,
  type ProcessorEvent,
  SignatureError,
  type SignedDelivery,
} from './processor.js';
import { paymentInputOf, processorAmountToMajor } from './processor-facts.js';
import { processorNamed } from './processors/registry.js';

export interface ConnectInput {
  provider: string;
  signing_secret: string;
  name?: string | null;
  default_currency?: string;
}

export interface ReceiveResult {
  received: true;
  /** The event id was applied before: nothing was applied again. */
  duplicate: boolean;
  /** Payments, trials and refunds the event recorded (0 for an event type that is ignored). */
  payments: number;
}

/** A verified event with each payment's facts read into the payment write path's input. */
type ReadDelivery = {
  event: ProcessorEvent;
  payments: { facts: PaymentFacts; input: Omit<PaymentInput, 'refund'> }[];
};

const connectionNotFound = () => new AppError(404, 'not_found', 'Connection not found');

export function createIntegrationsService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  secretKey: string;
  /** Where processors send their webhooks: the server's public address. */
  receiveBaseUrl: string;
  sites: Pick<SitesService, 'resolveSite'>;
  ingest: Pick<IngestService, 'recordEvents'>;
}) {
  const { db, clock, secretKey } = deps;
  const secrets = createSecretBox(secretKey);
  const receiveUrl = (provider: string, id: string) =>
    `${deps.receiveBaseUrl}/v1/integrations/${provider}/${id}`;
  const requireSite = (principal: Principal, ref: string) =>
    deps.sites.resolveSite(principal, ref, { includeScheduled: false });

  /** `input` is `facts` read by `paymentInputOf`, with the transaction id it resolved to. */
  async function applyPayment(
    trx: Transaction<DB>,
    facts: PaymentFacts,
    input: Omit<PaymentInput, 'refund'>,
    now: Date,
  ) {
    const record = (payment: PaymentInput) => writePayment(trx, payment, now, deps.ingest.recordEvents);
    if (facts.refundPart)
      return applyRefundPart(trx, input, facts.refundPart, facts.refundedAt ?? now, record);
    // The payment itself first, dated when it was paid: for a refund that arrives before its
    // payment this creates it; otherwise it is a duplicate that changes nothing.
    await record({ ...input, refund: null });
    // A running total of 0 refunds nothing (§4.4 refuses a zero refunded_amount for that reason).
    if (facts.refundedTotal === null || facts.refundedTotal <= 0) return;
    const totalMajor = processorAmountToMajor(facts.refundedTotal, facts.currency);
    await record({ ...input, at: facts.refundedAt ?? now, refund: { totalMajor } });
  }

  /**
   * One refund described on its own (Paddle's adjustments), added to the payment's refunded
   * total once per refund id. Such a refund does not say what the whole payment was, so it is
   * never written before its payment: the delivery is refused (409, nothing stored) and the
   * processor sends it again later, by when the payment has arrived.
   */
  async function applyRefundPart(
    trx: Transaction<DB>,
    input: Omit<PaymentInput, 'refund'>,
    part: { id: string; amount: number },
    refundedAt: Date,
    record: (payment: PaymentInput) => Promise<unknown>,
  ) {
    const key = { siteId: input.siteId, provider: input.provider, transactionId: input.transactionId };
    const payment = await lockPayment(trx, input.siteId, key);
    if (!payment) {
      throw new AppError(
        409,
        'conflict',
        'The refunded payment has not arrived yet; nothing was recorded, and the processor will send this refund again',
      );
    }
    const eventId = `refund:${part.id}`;
    const partIsNew = await store.claimProcessorEvent(trx, { ...key, eventId }, clock.now());
    if (!partIsNew || part.amount <= 0) return;
    const totalMajor =
      toMajorUnits(payment.refunded_minor, input.currency) +
      processorAmountToMajor(part.amount, input.currency);
    await record({ ...input, at: refundedAt, refund: { totalMajor } });
  }

  async function apply(
    connection: store.ConnectionRow,
    { event, payments }: ReadDelivery,
    now: Date,
  ): Promise<ReceiveResult> {
    const siteId = connection.site_id;
    const provider = connection.provider;
    return retryConflicts(() =>
      db.transaction().execute(async (trx) => {
        await store.recordEventReceived(trx, connection.id, now);
        const fresh = await store.claimProcessorEvent(trx, { siteId, provider, eventId: event.id }, now);
        if (!fresh) return { received: true, duplicate: true, payments: 0 };
        await store.insertAliases(trx, { siteId, provider }, event.aliases ?? []);
        for (const { facts, input } of payments) {
          const key = { siteId, provider, transactionId: input.transactionId };
          const transactionId = await store.resolveTransactionId(trx, key);
          await applyPayment(trx, facts, { ...input, transactionId }, now);
        }
        const first = event.payments.find((facts) => isSupportedCurrency(facts.currency));
        if (first) await store.adoptSiteCurrency(trx, siteId, first.currency);
        return { received: true, duplicate: false, payments: event.payments.length };
      }),
    );
  }

  /** Verifies and reads one delivery; a failure is noted on the connection and answered 400. */
  async function readDelivery(connection: store.ConnectionRow, delivery: SignedDelivery, now: Date) {
    const processor = processorNamed(connection.provider);
    if (!processor) throw connectionNotFound();
    try {
      const secret = openSecret(secrets, connection.secret_sealed, connection.id);
      const event = processor.read(processor.verify(delivery, secret, now));
      // Amounts and currencies are read (and checked) before anything is written.
      const context = { siteId: connection.site_id, provider: processor.name, secretKey };
      const payments = event.payments.map((facts) => ({ facts, input: paymentInputOf(facts, context) }));
      return { event, payments };
    } catch (error) {
      if (!(error instanceof SignatureError || error instanceof PayloadError)) throw error;
      await store.recordConnectionError(db, connection.id, error.message, now);
      const code = error instanceof SignatureError ? 'invalid_signature' : 'invalid_payload';
      throw new AppError(400, code, `${error.message}; nothing was recorded`);
    }
  }

  return {
    async connect(principal: Principal, ref: string, input: ConnectInput, createdBy: string | null) {
      const site = await requireSite(principal, ref);
      const processor = processorNamed(input.provider);
      if (!processor)
        throw new AppError(422, 'validation_failed', 'provider: not a supported processor', {
          field: 'provider',
        });
      if (processor.secretPrefix && !input.signing_secret.startsWith(processor.secretPrefix)) {
        throw badInput(
          'signing_secret',
          `signing_secret: a ${processor.name} signing secret starts with ${processor.secretPrefix} (${processor.secretHint})`,
        );
      }
      const id = newId();
      const now = clock.now();
      const row = {
        id,
        site_id: site.id,
        provider: processor.name,
        name: input.name?.trim() || null,
        secret_sealed: secrets.seal(input.signing_secret, id),
        created_by: createdBy,
        created_at: now,
      };
      await db.transaction().execute(async (trx) => {
        if (!(await store.insertConnection(trx, row))) {
          throw new AppError(
            409,
            'provider_connected',
            `${processor.name} is already connected to this site`,
            {
              field: 'provider',
            },
          );
        }
        if (input.default_currency) await store.adoptSiteCurrency(trx, site.id, input.default_currency);
      });
      return presentConnection(
        { ...row, last_event_at: null, last_error: null, last_error_at: null, events_received: 0 },
        receiveUrl(row.provider, id),
      );
    },

    async list(principal: Principal, ref: string) {
      const site = await requireSite(principal, ref);
      const rows = await store.listConnections(db, site.id);
      return rows.map((row) => presentConnection(row, receiveUrl(row.provider, row.id)));
    },

    async disconnect(principal: Principal, ref: string, connectionId: string) {
      const site = await requireSite(principal, ref);
      if (
        !UUID_PATTERN.test(connectionId) ||
        !(await store.deleteConnection(db, site.id, connectionId.toLowerCase()))
      )
        throw connectionNotFound();
    },

    /** True when payments of `provider` reach this site through a connection. */
    isConnected: (siteId: string, provider: string) => store.isProviderConnected(db, siteId, provider),

    async receive(provider: string, connectionId: string, delivery: SignedDelivery): Promise<ReceiveResult> {
      if (!UUID_PATTERN.test(connectionId)) throw connectionNotFound();
      const connection = await store.findConnection(db, connectionId.toLowerCase());
      if (!connection || connection.provider !== provider) throw connectionNotFound();
      const intake = (await readIntakeStates(db, [connection.site_id])).get(connection.site_id);
      if (!intake?.isAccepting) throw siteSuspended();
      const now = clock.now();
      const event = await readDelivery(connection, delivery, now);
      return apply(connection, event, now);
    },
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
