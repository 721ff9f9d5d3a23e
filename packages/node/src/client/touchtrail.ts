/** The client: `touchtrail.events.send()` and `touchtrail.payments.record()`. */
import { randomUUID } from 'node:crypto';
import { readOptions } from './options.js';
import { createPostJson } from './request.js';
import type {
  EventInput,
  EventResult,
  PaymentInput,
  PaymentResult,
  RequestOptions,
  TouchtrailOptions,
} from './types.js';

export class Touchtrail {
  readonly events: {
    /**
     * Records a conversion event. Without an `event_id`, one is generated for the call and
     * sent on every retry, so a retried call counts once; pass your own (an order id, say) to
     * make separate calls for the same event count once too.
     */
    send(input: EventInput, options?: RequestOptions): Promise<EventResult>;
  };

  readonly payments: {
    /**
     * Records a payment, trial, renewal or refund. Site + `provider` + `transaction_id` is the
     * idempotency key: a repeat answers `duplicate`, and a refund is the same payment posted again
     * with `refunded: true` or `refunded_amount` (the running total refunded so far).
     */
    record(input: PaymentInput, options?: RequestOptions): Promise<PaymentResult>;
  };

  /** Throws a `TouchtrailError` (`invalid_options`) for a missing or malformed key or endpoint. */
  constructor(options: TouchtrailOptions) {
    // The key stays inside this closure, out of reach of `console.log(touchtrail)`.
    const postJson = createPostJson(readOptions(options));
    this.events = {
      send: (input, requestOptions) =>
        postJson<EventResult>(
          '/v1/server/events',
          { ...input, event_id: input.event_id ?? randomUUID() },
          requestOptions,
        ),
    };
    this.payments = {
      record: (input, requestOptions) =>
        postJson<PaymentResult>('/v1/server/payments', input, requestOptions),
    };
  }
}
