/**
 * What one posting adds to daily_revenue, gathered per (day, model, source) in millionths and
 * turned into rows in a fixed order, so concurrent postings lock rows in the same order.
 */

import type { AttributionModel } from '../db/types.js';
import type { RevenueDelta } from './revenue-ledger.store.js';
import { microToDecimal } from './split-amount.js';

type Field = 'gross' | 'refunded' | 'conversions' | 'trials';
type Sums = Record<Field, bigint>;

export function createDeltaSheet(currency: string) {
  const sums = new Map<string, Sums>();
  return {
    add(day: string, model: AttributionModel, field: Field, parts: Map<string, bigint>) {
      for (const [source, micro] of parts) {
        const key = JSON.stringify([day, model, source]);
        const row = sums.get(key) ?? { gross: 0n, refunded: 0n, conversions: 0n, trials: 0n };
        row[field] += micro;
        sums.set(key, row);
      }
    },
    rows(): RevenueDelta[] {
      return [...sums]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, row]) => {
          const [day, model, source] = JSON.parse(key) as [string, string, string];
          return {
            day,
            model,
            source,
            currency,
            gross: microToDecimal(row.gross),
            refunded: microToDecimal(row.refunded),
            conversions: microToDecimal(row.conversions),
            trials: microToDecimal(row.trials),
          };
        });
    },
  };
}
