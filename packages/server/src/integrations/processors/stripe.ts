/**
 * Stripe connection (DESIGN.md §11): `Stripe-Signature` verified with the official package, and
 * the events that describe payments, trials and refunds read as payment facts. Every other
 * event type is acknowledged and ignored.
 */
import { PayloadError, type Processor, type ProcessorEvent } from '../processor.js';
import { isJsonObject, type Located } from './json-fields.js';
import {
  invoicePaymentAliases,
  readChargeRefunded,
  readCheckoutSession,
  readInvoicePaid,
  readPaymentIntentSucceeded,
  readSubscriptionCreated,
  type StripeObject,
} from './stripe-events.js';
import { dateAt, objectAt, stringAt } from './stripe-fields.js';
import { verifyStripe } from './stripe-signature.js';

/** The event types a Stripe webhook endpoint should send (README: "Connect Stripe"). */
export const STRIPE_EVENT_READERS: Record<string, (event: StripeObject) => ProcessorEvent['payments']> = {
  'checkout.session.completed': readCheckoutSession,
  'checkout.session.async_payment_succeeded': readCheckoutSession,
  'invoice.paid': readInvoicePaid,
  'customer.subscription.created': readSubscriptionCreated,
  'charge.refunded': readChargeRefunded,
  'payment_intent.succeeded': readPaymentIntentSucceeded,
};

/** Read for its aliases only (stripe-events.ts `invoicePaymentAliases`). */
export const INVOICE_PAYMENT_PAID = 'invoice_payment.paid';

function readStripeEvent(payload: unknown): ProcessorEvent {
  if (!isJsonObject(payload)) throw new PayloadError('the event must be a JSON object');
  const event: Located = { value: payload, path: 'event' };
  const id = stringAt(event, 'id');
  const type = stringAt(event, 'type');
  const reader = Object.hasOwn(STRIPE_EVENT_READERS, type) ? STRIPE_EVENT_READERS[type] : undefined;
  const read = () => ({
    object: objectAt(objectAt(event, 'data'), 'object'),
    eventAt: dateAt(event, 'created'),
  });
  if (type === INVOICE_PAYMENT_PAID)
    return { id, type, payments: [], aliases: invoicePaymentAliases(read()) };
  if (!reader) return { id, type, payments: [] };
  return { id, type, payments: reader(read()) };
}

export const stripe: Processor = {
  name: 'stripe',
  secretHint:
    'Stripe Dashboard → Developers → Webhooks (Workbench: Event destinations) → your endpoint → Signing secret (whsec_…)',
  secretPrefix: 'whsec_',
  verify: verifyStripe,
  read: readStripeEvent,
};
