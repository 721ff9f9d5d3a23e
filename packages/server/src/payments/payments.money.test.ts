/** Money is stored as integer minor units with the currency's ISO 4217 exponent, exactly. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { newTransactionId } from './payments.fixtures.js';

describe('POST /v1/server/payments: money', () => {
  const t = useTestApp();

  it('stores any amount up to 1e12 exactly in minor units (JPY, USD, KWD)', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const exponents = { JPY: 0, USD: 2, KWD: 3 } as const;
    const amounts = fc
      .constantFrom<keyof typeof exponents>('JPY', 'USD', 'KWD')
      .chain((currency) =>
        fc
          .bigInt({ min: 0n, max: 10n ** 12n * 10n ** BigInt(exponents[currency]) })
          .map((minor) => ({ currency, minor })),
      );
    await fc.assert(
      fc.asyncProperty(amounts, async ({ currency, minor }) => {
        const exponent = exponents[currency];
        const digits = minor.toString().padStart(exponent + 1, '0');
        const major = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
        const transactionId = newTransactionId();
        // The body is written by hand so the amount travels as the exact decimal text.
        const response = await t.request({
          method: 'POST',
          url: '/v1/server/payments',
          headers: { authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'application/json' },
          payload: `{"site_id":"${site.snippet_key}","transaction_id":"${transactionId}","amount":${major},"currency":"${currency}"}`,
        });
        expect(response.statusCode).toBe(202);
        const stored = await t.database.db
          .selectFrom('payments')
          .select(['amount_minor', 'kind'])
          .where('site_id', '=', site.id)
          .where('transaction_id', '=', transactionId)
          .executeTakeFirstOrThrow();
        expect(stored.amount_minor).toBe(minor === 0n ? 0 : Number(minor));
        expect(stored.kind).toBe(minor === 0n ? 'trial' : 'payment');
      }),
      {
        numRuns: 60,
        examples: [[{ currency: 'KWD', minor: 10n ** 15n }], [{ currency: 'USD', minor: 29n }]],
      },
    );
  });
});
