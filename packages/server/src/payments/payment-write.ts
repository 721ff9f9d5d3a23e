/**
 * One payment post as one transaction: claim the idempotency key, write a new payment's
 * conversion (event, daily count, attribution job, identity link), then record a refund against
 * the locked payment row through the revenue ledger. Nothing of it is visible until it commits,
 * so a failure records nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import type { IngestService } from '../ingest/ingest.service.js';
import { toMinorUnits } from '../lib/money.js';
import { type LedgerPayment, lockPayment, postRefund } from '../revenue/revenue-ledger.js';
import type { PaymentStatus } from './payments.schemas.js';
import * as store from './payments.store.js';
import { applyRefundRules } from './refund-rules.js';

type Trx = Transaction<DB>;

export interface PaymentInput {
  siteId: string;
  provider: string;
  transactionId: string;
  kind: 'payment' | 'trial';
  amountMinor: number;
  currency: string;
  /** What the processor paid out, when it says; revenue is counted in it. */
  settlement: { amountMinor: number; currency: string } | null;
  renewal: boolean;
  /** Already redacted. */
  customerId: string | null;
  visitorId: string | null;
  /** HMAC of the email (identity/person-key.ts); the email itself never gets this far. */
  personKey: string | null;
  /** The post's `timestamp` or the time of receipt: when the payment, or the refund, happened. */
  at: Date;
  /** Present on a refund post: the sent running total in major units, null for "everything". */
  refund: { totalMajor: number | null } | null;
}

/** The conversion event's id (stored in payments.event_id); webhooks and listings show it. */
export const paymentEventId = (paymentId: string) => `pay_${paymentId}`;

/**
 * A refund's part of the payment's settlement, when the payment has one: the settled share of
 * the refunded total after it minus that of the total before, each rounded to the unit, so the
 * parts of any sequence of refunds add up to the whole settlement once everything is refunded.
 */
export function settlementRefund(
  payment: Pick<LedgerPayment, 'amount_minor' | 'settlement_minor' | 'settlement_currency'>,
  totalBefore: number,
  totalAfter: number,
): { amountMinor: number; currency: string } | null {
  if (payment.settlement_minor === null || payment.settlement_currency === null) return null;
  const amount = BigInt(payment.amount_minor);
  const settlement = BigInt(payment.settlement_minor);
  // Half up, in integers: (2·t·S + A) / 2A.
  const settledAt = (total: number) => (2n * BigInt(total) * settlement + amount) / (2n * amount);
  return {
    amountMinor: Number(settledAt(totalAfter) - settledAt(totalBefore)),
    currency: payment.settlement_currency,
  };
}

/** How a payment's conversion event is written: as every other event (the ingest service). */
export type RecordEvents = IngestService['recordEvents'];

/** What a post did (`status`) and the public id of the payment it concerns, `pay_…`. */
export interface PaymentWritten {
  status: PaymentStatus;
  eventId: string;
}

export async function writePayment(
  trx: Trx,
  input: PaymentInput,
  now: Date,
  recordEvents: RecordEvents,
): Promise<PaymentWritten> {
  const id = randomUUID();
  const claimed = await store.claimPayment(trx, {
    site_id: input.siteId,
    id,
    event_id: paymentEventId(id),
    provider: input.provider,
    transaction_id: input.transactionId,
    kind: input.kind,
    amount_minor: input.amountMinor,
    currency: input.currency,
    settlement_minor: input.settlement?.amountMinor ?? null,
    settlement_currency: input.settlement?.currency ?? null,
    renewal: input.renewal,
    customer_id: input.customerId,
    visitor_id: input.visitorId,
    person_key: input.personKey,
    paid_at: input.at,
    received_at: now,
  });
  if (claimed.isNew) await writeConversion(trx, input, claimed.eventId, now, recordEvents);
  if (!input.refund) {
    if (!claimed.isNew) return { status: 'duplicate', eventId: claimed.eventId };
    return { status: input.kind === 'trial' ? 'trial' : 'recorded', eventId: claimed.eventId };
  }
  // A refund whose original was never posted lands here too, right after its payment was made.
  const payment = await lockPayment(trx, input.siteId, {
    provider: input.provider,
    transactionId: input.transactionId,
  });
  if (!payment) throw new Error('a claimed payment row is missing');
  await refund(trx, input.siteId, payment, input.refund.totalMajor, input.at, now);
  return { status: 'refunded', eventId: payment.event_id };
}

async function writeConversion(
  trx: Trx,
  input: PaymentInput,
  eventId: string,
  now: Date,
  recordEvents: RecordEvents,
) {
  const properties: Record<string, string | boolean> = { provider: input.provider, renewal: input.renewal };
  if (input.customerId !== null) properties.customer_id = input.customerId;
  const links =
    input.visitorId && input.personKey
      ? [
          {
            site_id: input.siteId,
            person_key: input.personKey,
            visitor_id: input.visitorId,
            created_at: input.at,
          },
        ]
      : [];
  await recordEvents(
    trx,
    [
      {
        site_id: input.siteId,
        event_id: eventId,
        type: 'event',
        name: input.kind,
        visitor_id: input.visitorId,
        person_key: input.personKey,
        visit_id: null,
        occurred_at: input.at,
        received_at: now,
        url: null,
        properties,
        value_minor: input.amountMinor,
        currency: input.currency,
        origin: 'server',
      },
    ],
    links,
    now,
  );
}

/**
 * Takes back the part of the sent total not yet refunded: the refund goes to the revenue ledger,
 * which takes it out of daily_revenue at once or when the payment is attributed.
 */
async function refund(
  trx: Trx,
  siteId: string,
  payment: LedgerPayment,
  totalMajor: number | null,
  refundedAt: Date,
  now: Date,
): Promise<void> {
  const sentTotalMinor = totalMajor === null ? null : toMinorUnits(totalMajor, payment.currency);
  const { deltaMinor, totalMinor } = applyRefundRules(
    { amountMinor: payment.amount_minor, refundedMinor: payment.refunded_minor },
    sentTotalMinor,
  );
  if (deltaMinor === 0) return;
  const settled = settlementRefund(payment, totalMinor - deltaMinor, totalMinor);
  await postRefund(
    trx,
    siteId,
    payment,
    { amountMinor: deltaMinor, settlementMinor: settled?.amountMinor ?? null, refundedAt },
    now,
  );
  await store.setRefundedTotal(trx, siteId, payment.id, totalMinor);
}
