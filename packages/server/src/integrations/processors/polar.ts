/**
 * Polar (polar.sh) webhooks as payment facts. Read: `order.paid` (payments, renewals, the trial
 * order), `order.refunded` (running refund totals) and `subscription.created` while `trialing`.
 * Every other type is acknowledged and ignored; among them `order.created` and `order.updated`,
 * because Polar sends `order.paid` for every order once it is paid, even one paid at creation
 * (polarsource/polar `server/polar/order/service.py`, `_on_order_created`), and `refund.*`, whose
 * totals `order.refunded` already carries.
 */
import {
  PayloadError,
  type PaymentFacts,
  type Processor,
  type ProcessorEvent,
  type SignedDelivery,
} from '../processor.js';
import { isJsonObject, type Located } from './json-fields.js';
import { dateAt, stringAt } from './polar-fields.js';
import { readOrder, readSubscriptionCreated } from './polar-order.js';
import { verifyPolarSignature } from './polar-signature.js';

/**
 * What `verify` returns: Polar's body has no event id of its own, the event id is the
 * `webhook-id` header (the same on every retry), so it travels beside the parsed body.
 */
export interface VerifiedPolarDelivery {
  id: string;
  body: unknown;
}

function verify(delivery: SignedDelivery, secret: string, now: Date): VerifiedPolarDelivery {
  const id = verifyPolarSignature(delivery, secret, now);
  try {
    return { id, body: JSON.parse(delivery.rawBody) };
  } catch {
    throw new PayloadError('the body is not JSON');
  }
}

type ReadPayments = (data: Located, at: Date) => PaymentFacts[];
const READERS = new Map<string, ReadPayments>([
  ['order.paid', (data, at) => readOrder(data, at, false)],
  ['order.refunded', (data, at) => readOrder(data, at, true)],
  ['subscription.created', readSubscriptionCreated],
]);

function read(payload: unknown): ProcessorEvent {
  if (!isJsonObject(payload) || typeof payload.id !== 'string' || !('body' in payload))
    throw new PayloadError('expected the { id, body } that polar.verify returns');
  if (!isJsonObject(payload.body)) throw new PayloadError('the body must be a JSON object');
  const body: Located = { value: payload.body, path: 'body' };
  const type = stringAt(body, 'type');
  const event = { id: payload.id, type, payments: [] };
  const readPayments = READERS.get(type);
  if (!readPayments) return event;
  // Named `data`, not `body.data`, in messages.
  const data = body.value.data;
  if (!isJsonObject(data)) throw new PayloadError('data must be an object');
  return { ...event, payments: readPayments({ value: data, path: 'data' }, dateAt(body, 'timestamp')) };
}

export const polar: Processor = {
  name: 'polar',
  secretHint:
    'Polar dashboard → Settings → Webhooks → your endpoint: the signing secret (starts with whsec_)',
  secretPrefix: null,
  verify,
  read,
};
