import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTION_MODELS } from '../attribution/models.js';
import { splitRefund } from '../revenue/revenue-ledger.js';
import { applyRefundRules } from './refund-rules.js';

describe('refund rules', () => {
  it('takes back only the part of the running total not yet refunded, never more than the payment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 15 }),
        fc.array(fc.option(fc.integer({ min: 1, max: 2 * 10 ** 15 }), { nil: null }), { maxLength: 20 }),
        (amountMinor, sentTotals) => {
          let refundedMinor = 0;
          let highest = 0;
          for (const sent of sentTotals) {
            const { deltaMinor, totalMinor } = applyRefundRules({ amountMinor, refundedMinor }, sent);
            expect(deltaMinor).toBeGreaterThanOrEqual(0);
            expect(totalMinor).toBe(refundedMinor + deltaMinor);
            expect(totalMinor).toBeLessThanOrEqual(amountMinor);
            highest = Math.max(highest, Math.min(sent ?? amountMinor, amountMinor));
            // The refunded total is always the highest total sent so far, capped at the payment.
            expect(totalMinor).toBe(highest);
            // Posting the same total again changes nothing.
            expect(applyRefundRules({ amountMinor, refundedMinor: totalMinor }, sent).deltaMinor).toBe(0);
            refundedMinor = totalMinor;
          }
        },
      ),
    );
  });

  it('splits a refund over each model’s credited sources exactly, or wholly to the unattributed source', () => {
    const third = 1 / 3;
    const parts = splitRefund(
      [
        { model: 'linear', source: 'search', share: third },
        { model: 'linear', source: 'chatgpt', share: third },
        { model: 'linear', source: 'email', share: third },
        { model: 'first_touch', source: 'chatgpt', share: 1 },
      ],
      1000,
    );
    expect(parts).toEqual([
      { model: 'first_touch', source: 'chatgpt', amountMinor: '1000.000000' },
      { model: 'last_touch', source: '', amountMinor: '1000.000000' },
      { model: 'linear', source: 'chatgpt', amountMinor: '333.333334' },
      { model: 'linear', source: 'email', amountMinor: '333.333333' },
      { model: 'linear', source: 'search', amountMinor: '333.333333' },
      { model: 'time_decay', source: '', amountMinor: '1000.000000' },
    ]);
    for (const model of ATTRIBUTION_MODELS) {
      const micro = parts.filter((p) => p.model === model).map((p) => BigInt(p.amountMinor.replace('.', '')));
      expect(micro.reduce((a, b) => a + b, 0n)).toBe(1_000_000_000n);
    }
  });
});
