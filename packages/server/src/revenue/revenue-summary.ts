/**
 * Shapes the daily rollup into the revenue report: per day and per credited source, per source
 * over the window, and totals, in the site's currency. Money in another currency is converted
 * at the ECB rate of its day (or the most recent earlier one); money with no rate on record is
 * left out of those figures and listed per currency under the row's own `unconverted` (and the
 * report's, for the window), so no amount is ever guessed and no row loses money silently.
 * Counts need no rate and are always included. Revenue no visit could be credited with is shown
 * as direct, like its conversion.
 */
import { toMajorUnits } from '../lib/money.js';
import { convertMajor, roundToCurrency } from '../rates/exchange.js';
import { reportedSource } from './credited-source.js';
import type { RevenueDayRow } from './revenue-by-day.query.js';

export interface Figures {
  gross: number;
  refunded: number;
  net: number;
  conversions: number;
  trials: number;
}

/** Money of one row in its own currency, major units. */
interface Money {
  gross: number;
  refunded: number;
}

/** A row's figures while summing, with the money set aside per currency that had no rate. */
interface Tally extends Figures {
  unconverted: Map<string, Money>;
}

const COUNT_DECIMALS = 6;

const zero = (): Tally => ({
  gross: 0,
  refunded: 0,
  net: 0,
  conversions: 0,
  trials: 0,
  unconverted: new Map(),
});

function add(into: Tally, row: RevenueDayRow, converted: Money | null, original: Money) {
  if (converted) {
    into.gross += converted.gross;
    into.refunded += converted.refunded;
    into.net += converted.gross - converted.refunded;
  } else {
    const aside = into.unconverted.get(row.currency) ?? { gross: 0, refunded: 0 };
    aside.gross += original.gross;
    aside.refunded += original.refunded;
    into.unconverted.set(row.currency, aside);
  }
  into.conversions += row.conversions;
  into.trials += row.trials;
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

/** Set-aside money per currency, alphabetical, each rounded to its own minor unit. */
const unconvertedList = (aside: Map<string, Money>) =>
  [...aside]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, money]) => ({
      currency: code,
      gross: roundToCurrency(money.gross, code),
      refunded: roundToCurrency(money.refunded, code),
      net: roundToCurrency(money.gross - money.refunded, code),
    }));

const withUnconverted = (tally: Tally, currency: string) => ({
  ...rounded(tally, currency),
  unconverted: unconvertedList(tally.unconverted),
});

/** Biggest net first, then by name: the order a breakdown is read in. */
const bySize = <T extends { source: string } & Figures>(rows: T[]) =>
  rows.sort((a, b) => b.net - a.net || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));

export function summariseRevenue(rows: RevenueDayRow[], currency: string) {
  const days = new Map<string, { total: Tally; sources: Map<string, Tally> }>();
  const sources = new Map<string, Tally>();
  const totals = zero();

  for (const row of rows) {
    const original = {
      gross: toMajorUnits(row.gross_minor, row.currency),
      refunded: toMajorUnits(row.refunded_minor, row.currency),
    };
    const rates = { from: row.from_per_euro, to: row.to_per_euro };
    const gross = convertMajor(original.gross, row.currency, currency, rates);
    const refunded = convertMajor(original.refunded, row.currency, currency, rates);
    const converted = gross === null || refunded === null ? null : { gross, refunded };
    const day = days.get(row.day) ?? { total: zero(), sources: new Map<string, Tally>() };
    days.set(row.day, day);
    const source = reportedSource(row.source);
    const daySource = day.sources.get(source) ?? zero();
    day.sources.set(source, daySource);
    const windowSource = sources.get(source) ?? zero();
    sources.set(source, windowSource);
    for (const tally of [day.total, daySource, windowSource, totals]) add(tally, row, converted, original);
  }

  const sourceList = (map: Map<string, Tally>) =>
    bySize([...map].map(([source, tally]) => ({ source, ...withUnconverted(tally, currency) })));
  return {
    currency,
    totals: rounded(totals, currency),
    sources: sourceList(sources),
    days: [...days].map(([date, day]) => ({
      date,
      ...withUnconverted(day.total, currency),
      sources: sourceList(day.sources),
    })),
    unconverted: unconvertedList(totals.unconverted),
  };
}
