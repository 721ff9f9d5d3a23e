/**
 * The rules of `POST /v1/server/payments` (interface §4.4, §7.4): who may post for which site,
 * what a post means (payment, trial, refund), and how failures are answered. A database that
 * cannot be reached is 503 `unavailable` with nothing recorded; a retry then records once.
 */
import type { Kysely } from 'kysely';
import { coversSite, type KeyPrincipal } from '../access/principal.js';
import { isReachable } from '../db/database.js';
import { retryConflicts } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError, badInput, unauthorized } from '../http/errors.js';
import { emailPersonKey } from '../identity/person-key.js';
import type { IngestService } from '../ingest/ingest.service.js';
import { type Clock, HOUR_MS } from '../lib/clock.js';
import { SNIPPET_KEY_PATTERN } from '../lib/ids.js';
import { toMinorUnits } from '../lib/money.js';
import { redactText } from '../lib/redact.js';
import { siteSuspended } from '../sites/site-intake.js';
import type { SitesService } from '../sites/sites.service.js';
import { type PaymentInput, writePayment } from './payment-write.js';
import { DEFAULT_PROVIDER, type PaymentBody, type PaymentStatus } from './payments.schemas.js';

const MAX_FUTURE_MS = 24 * HOUR_MS;

export function createPaymentsService({
  db,
  clock,
  secretKey,
  sites,
  ingest,
  isProviderConnected,
}: {
  db: Kysely<DB>;
  clock: Clock;
  secretKey: string;
  sites: Pick<SitesService, 'findIntakeSite'>;
  ingest: Pick<IngestService, 'recordEvents'>;
  /** True when a processor connection records this provider's payments for the site (DESIGN §11). */
  isProviderConnected: (siteId: string, provider: string) => Promise<boolean>;
}) {
  const unavailable = () =>
    new AppError(503, 'unavailable', 'Could not reach the database; nothing was recorded; retry');

  /**
   * What to answer for a failure on the payment route: our own errors as they are; anything
   * else (a driver or pool error) is 503 when the database does not answer, 500 otherwise.
   * Either way the transaction did not commit, so the client's retry records the payment once.
   */
  async function explainFailure(error: unknown): Promise<unknown> {
    if (error instanceof AppError) return error;
    if (typeof (error as { statusCode?: unknown })?.statusCode === 'number') return error;
    return (await isReachable(db)) ? error : unavailable();
  }

  async function requireSite(principal: KeyPrincipal, siteKey: string) {
    // Not a `ttid_` key, unknown, or outside the key's reach: all 401 on payments (§5.6, §7.4).
    if (!SNIPPET_KEY_PATTERN.test(siteKey)) throw unauthorized('site_id is not a site this key covers');
    const intake = await sites.findIntakeSite(siteKey);
    if (!intake || !coversSite(principal, intake.site))
      throw unauthorized('site_id is not a site this key covers');
    if (!intake.isAccepting) throw siteSuspended();
    return intake.site;
  }

  function settlementOf(body: PaymentBody): PaymentInput['settlement'] {
    const amount = body.settlement_amount ?? null;
    const currency = body.settlement_currency ?? null;
    if (amount === null && currency === null) return null;
    if (amount === null)
      throw badInput('settlement_amount', 'settlement_amount: must be sent with settlement_currency');
    if (currency === null)
      throw badInput('settlement_currency', 'settlement_currency: must be sent with settlement_amount');
    return { amountMinor: toMinorUnits(amount, currency), currency };
  }

  function toInput(siteId: string, body: PaymentBody, at: Date): PaymentInput {
    // An amount below the currency's smallest unit (0.004 USD) is zero revenue: a trial too.
    const amountMinor = toMinorUnits(body.amount, body.currency);
    const isTrial = amountMinor === 0 || body.is_free_trial === true;
    const isRefund = body.refunded === true || (body.refunded_amount ?? null) !== null;
    const visitorId = body.visitor_id ?? null;
    return {
      siteId,
      provider: body.provider ?? DEFAULT_PROVIDER,
      transactionId: body.transaction_id,
      kind: isTrial ? 'trial' : 'payment',
      // A trial is a conversion with zero revenue, whatever amount came with it.
      amountMinor: isTrial ? 0 : amountMinor,
      currency: body.currency,
      settlement: settlementOf(body),
      renewal: body.renewal ?? false,
      customerId: body.customer_id ? redactText(body.customer_id) : null,
      visitorId,
      personKey: body.email ? emailPersonKey(secretKey, body.email) : null,
      at,
      refund: isRefund ? { totalMajor: body.refunded_amount ?? null } : null,
    };
  }

  return {
    explainFailure,

    async record(
      principal: KeyPrincipal,
      body: PaymentBody,
    ): Promise<{ status: PaymentStatus; transaction_id: string; event_id: string }> {
      const now = clock.now();
      const at = body.timestamp ? new Date(body.timestamp) : now;
      if (at.getTime() > now.getTime() + MAX_FUTURE_MS) {
        throw badInput('timestamp', 'timestamp: must be at most 24 hours in the future');
      }
      try {
        const site = await requireSite(principal, body.site_id);
        const input = toInput(site.id, body, at);
        if (await isProviderConnected(site.id, input.provider)) {
          throw new AppError(
            409,
            'provider_connected',
            `${input.provider} is connected to this site and records its payments itself; posting them here too would count each twice`,
          );
        }
        // A deadlock or serialisation failure rolled everything back: the post is simply tried again.
        const written = await retryConflicts(() =>
          db.transaction().execute((trx) => writePayment(trx, input, now, ingest.recordEvents)),
        );
        return { status: written.status, transaction_id: body.transaction_id, event_id: written.eventId };
      } catch (error) {
        throw await explainFailure(error);
      }
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
