/**
 * Shapes the daily rollup into the revenue report: per day and per credited source, per source
 * over the window, and totals, in the site's currency. Money in another currency is converted
 * at the ECB rate of its day (or the most recent earlier one); money with no rate on record is
 * left out of those figures and listed per currency under `unconverted` instead, so no amount
 * is ever guessed. Counts need no rate and are always included.
 */
import { toMajorUnits } from '../lib/money.js';
import { convertMajor, roundToCurrency } from '../rates/exchange.js';
import type { RevenueDayRow } from './revenue-by-day.query.js';

export interface Figures {
  gross: number;
  refunded: number;
  net: number;
  conversions: number;
  trials: number;
}

const COUNT_DECIMALS = 6;

const zero = (): Figures => ({ gross: 0, refunded: 0, net: 0, conversions: 0, trials: 0 });

function add(into: Figures, money: { gross: number; refunded: number } | null, counts: RevenueDayRow) {
  if (money) {
    into.gross += money.gross;
    into.refunded += money.refunded;
    into.net += money.gross - money.refunded;
  }
  into.conversions += counts.conversions;
  into.trials += counts.trials;
}

function rounded(figures: Figures, currency: string): Figures {
  return {
    gross: roundToCurrency(figures.gross, currency),
    refunded: roundToCurrency(figures.refunded, currency),
    net: roundToCurrency(figures.net, currency),
    conversions: Number(figures.conversions.toFixed(COUNT_DECIMALS)),
    trials: Number(figures.trials.toFixed(COUNT_DECIMALS)),
  };
}

/** Biggest net first, then by name: the order a breakdown is read in. */
const bySize = <T extends { source: string } & Figures>(rows: T[]) =>
  rows.sort((a, b) => b.net - a.net || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));

export function summariseRevenue(rows: RevenueDayRow[], currency: string) {
  const days = new Map<string, { total: Figures; sources: Map<string, Figures> }>();
  const sources = new Map<string, Figures>();
  const totals = zero();
  const unconverted = new Map<string, { gross: number; refunded: number }>();

  for (const row of rows) {
    const rates = { from: row.from_per_euro, to: row.to_per_euro };
    const gross = convertMajor(toMajorUnits(row.gross_minor, row.currency), row.currency, currency, rates);
    const refunded = convertMajor(
      toMajorUnits(row.refunded_minor, row.currency),
      row.currency,
      currency,
      rates,
    );
    const money = gross === null || refunded === null ? null : { gross, refunded };
    if (!money) {
      const aside = unconverted.get(row.currency) ?? { gross: 0, refunded: 0 };
      aside.gross += toMajorUnits(row.gross_minor, row.currency);
      aside.refunded += toMajorUnits(row.refunded_minor, row.currency);
      unconverted.set(row.currency, aside);
    }
    const day = days.get(row.day) ?? { total: zero(), sources: new Map<string, Figures>() };
    days.set(row.day, day);
    const daySource = day.sources.get(row.source) ?? zero();
    day.sources.set(row.source, daySource);
    const windowSource = sources.get(row.source) ?? zero();
    sources.set(row.source, windowSource);
    for (const figures of [day.total, daySource, windowSource, totals]) add(figures, money, row);
  }

  const sourceList = (map: Map<string, Figures>) =>
    bySize([...map].map(([source, figures]) => ({ source, ...rounded(figures, currency) })));
  return {
    currency,
    totals: rounded(totals, currency),
    sources: sourceList(sources),
    days: [...days].map(([date, day]) => ({
      date,
      ...rounded(day.total, currency),
      sources: sourceList(day.sources),
    })),
    unconverted: [...unconverted]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([code, money]) => ({
        currency: code,
        gross: roundToCurrency(money.gross, code),
        refunded: roundToCurrency(money.refunded, code),
        net: roundToCurrency(money.gross - money.refunded, code),
      })),
  };
}
