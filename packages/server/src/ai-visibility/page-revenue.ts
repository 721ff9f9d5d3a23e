/**
 * Conversions and net revenue per page from each conversion's page shares (page-credit.ts).
 * Money is converted whole into the site currency at the ECB rate of its UTC day, as the
 * revenue report does, then split; money with no rate on record is never guessed: it is left
 * out of the pages and summed per currency apart (`unconverted`).
 */
import { currencyExponent } from '../lib/money.js';
import type { RatesService } from '../rates/rates.service.js';
import type { MoneyRow } from './credited-conversions.query.js';
import type { PageShares } from './page-credit.js';

export interface PageMoney {
  conversions: Map<string, number>;
  /** Fractional minor units of the site currency. */
  revenue: Map<string, number>;
  unplaced: { conversions: number; revenue: number };
  /** Per currency: fractional minor units of that currency, AI-credited, with no rate. */
  unconverted: Map<string, number>;
}

const addTo = (map: Map<string, number>, key: string, amount: number) =>
  map.set(key, (map.get(key) ?? 0) + amount);

/** Sums what each conversion's shares carry: its count on the page it counts on, and its money. */
export async function pageMoneyOf(
  input: {
    conversions: readonly { event_id: string }[];
    payments: readonly MoneyRow[];
    refunds: readonly MoneyRow[];
    shares: ReadonlyMap<string, PageShares>;
    currency: string;
  },
  convertMinor: RatesService['convertMinor'],
): Promise<PageMoney> {
  const result: PageMoney = {
    conversions: new Map(),
    revenue: new Map(),
    unplaced: { conversions: 0, revenue: 0 },
    unconverted: new Map(),
  };
  for (const { event_id } of input.conversions) {
    const counted = input.shares.get(event_id)?.countedOn;
    if (counted === undefined) continue;
    if (counted === null) result.unplaced.conversions += 1;
    else addTo(result.conversions, counted, 1);
  }

  const factor = 10 ** currencyExponent(input.currency);
  const converted = new Map<string, Promise<number | null>>();
  const toSiteMinor = (row: MoneyRow) => {
    const key = JSON.stringify([row.amount_minor, row.currency, row.day]);
    let found = converted.get(key);
    if (!found) {
      found = convertMinor(Number(row.amount_minor), row.currency, input.currency, row.day).then((major) =>
        major === null ? null : Math.round(major * factor),
      );
      converted.set(key, found);
    }
    return found;
  };
  for (const [rows, sign] of [
    [input.payments, 1],
    [input.refunds, -1],
  ] as const) {
    for (const row of rows) {
      const shares = input.shares.get(row.event_id);
      if (!shares) continue;
      const amount = await toSiteMinor(row);
      if (amount === null) {
        const credited = [...shares.pages.values()].reduce((sum, share) => sum + share, shares.unplaced);
        addTo(result.unconverted, row.currency, sign * Number(row.amount_minor) * credited);
        continue;
      }
      for (const [page, share] of shares.pages) addTo(result.revenue, page, sign * amount * share);
      result.unplaced.revenue += sign * amount * shares.unplaced;
    }
  }
  return result;
}
