/**
 * The crawler report: what AI crawlers fetched, and per AI operator the loop from crawling to
 * money — pages its crawlers fetched, visits its assistant sent, conversions and net revenue
 * credited to those visits under the chosen attribution model.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { currencyExponent, toMajorUnits } from '../lib/money.js';
import { roundToCurrency } from '../rates/exchange.js';
import { CRAWLER_RANGE_SOURCES } from './crawler-ranges.data.js';
import { RANGES_MAX_AGE_MS } from './crawler-ranges.js';
import * as store from './crawler-report.store.js';
import { OPERATOR_ASSISTANTS } from './crawlers.data.js';

/**
 * Converts whole minor units of one currency into major units of another at the rate of a day,
 * rounded to the target's minor unit; null without a rate (RatesService.convertMinor).
 */
export type Convert = (amountMinor: number, from: string, to: string, day: string) => Promise<number | null>;

type RevenueRow = Awaited<ReturnType<typeof store.creditedRevenue>>[number];

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

const MICRO_PER_MINOR = 1_000_000n;

/** Decimal text of minor units (daily_revenue keeps six decimals) as exact millionths. */
function toMicro(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{0,6}))?$/.exec(text);
  if (!match) throw new RangeError(`not an amount of minor units: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const micro = BigInt(whole) * MICRO_PER_MINOR + BigInt(fraction.padEnd(6, '0'));
  return sign ? -micro : micro;
}

/** Millionths rounded half away from zero to whole minor units, as `Convert` takes them. */
function wholeMinor(micro: bigint): number {
  const magnitude = ((micro < 0n ? -micro : micro) + MICRO_PER_MINOR / 2n) / MICRO_PER_MINOR;
  return Number(micro < 0n ? -magnitude : magnitude);
}

/**
 * An operator's credited money in the site currency, unrounded. Shares of a split payment are
 * fractions of a minor unit, so rows are summed exactly before anything is rounded. Money in
 * the site currency needs no rate: it is summed over the whole window and rounded once by the
 * caller, as GET /v1/revenue does. Other money is summed per currency and day, rounded once to
 * whole minor units and converted at that day's rate (to the site currency's minor unit).
 */
async function creditedMoney(rows: RevenueRow[], currency: string, convert: Convert) {
  const sums = new Map<
    string,
    { currency: string; day: string; gross: bigint; refunded: bigint; payments: number }
  >();
  for (const row of rows) {
    const key = row.currency === currency ? currency : `${row.currency} ${row.day}`;
    const sum = sums.get(key) ?? {
      currency: row.currency,
      day: row.day,
      gross: 0n,
      refunded: 0n,
      payments: 0,
    };
    sum.gross += toMicro(row.gross_minor);
    sum.refunded += toMicro(row.refunded_minor);
    sum.payments += Number(row.conversions);
    sums.set(key, sum);
  }
  const money = { gross: 0, refunded: 0, payments: 0, unconvertedDays: 0 };
  const aside = new Map<string, { gross: bigint; refunded: bigint }>();
  for (const sum of sums.values()) {
    // Counted whatever the currency: a payment with no rate is still a payment.
    money.payments += sum.payments;
    const inSiteCurrency = async (micro: bigint) =>
      sum.currency === currency
        ? toMajorUnits(Number(micro) / 1e6, currency)
        : convert(wholeMinor(micro), sum.currency, currency, sum.day);
    const [gross, refunded] = await Promise.all([inSiteCurrency(sum.gross), inSiteCurrency(sum.refunded)]);
    if (gross === null || refunded === null) {
      money.unconvertedDays += 1;
      const set = aside.get(sum.currency) ?? { gross: 0n, refunded: 0n };
      set.gross += sum.gross;
      set.refunded += sum.refunded;
      aside.set(sum.currency, set);
      continue;
    }
    money.gross += gross;
    money.refunded += refunded;
  }
  return { ...money, unconverted: unconvertedList(aside) };
}

/** Money with no rate, per currency in that currency, as GET /v1/revenue lists it. */
function unconvertedList(aside: Map<string, { gross: bigint; refunded: bigint }>) {
  const major = (micro: bigint, code: string) =>
    roundToCurrency(toMajorUnits(Number(micro) / 1e6, code), code);
  return [...aside]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, sum]) => ({
      currency: code,
      gross: major(sum.gross, code),
      refunded: major(sum.refunded, code),
      net: major(sum.gross - sum.refunded, code),
    }));
}

export async function buildCrawlerReport(
  db: Kysely<DB>,
  input: {
    siteId: string;
    snippetKey: string;
    currency: string;
    from: string;
    to: string;
    model: string;
    now: Date;
  },
  convert: Convert,
) {
  const window = { siteId: input.siteId, from: input.from, to: input.to };
  const labels = Object.values(OPERATOR_ASSISTANTS).flat();
  const [days, paths, fetches, visits, conversions, revenue, lists] = await Promise.all([
    store.crawlerDays(db, window),
    store.topPaths(db, window),
    store.operatorFetches(db, window),
    store.assistantVisits(db, window, labels),
    store.creditedConversions(db, window, input.model, labels),
    store.creditedRevenue(db, window, input.model, labels),
    store.addressLists(db),
  ]);

  const crawlers = new Map<
    string,
    {
      crawler: string;
      operator: string;
      purpose: string;
      hits: number;
      verified_hits: number;
      spoofed_hits: number;
      days: { date: string; hits: number }[];
    }
  >();
  const purposes = new Map<string, number>();
  for (const row of days) {
    const entry = crawlers.get(row.crawler) ?? {
      crawler: row.crawler,
      operator: row.operator,
      purpose: row.purpose,
      hits: 0,
      verified_hits: 0,
      spoofed_hits: 0,
      days: [],
    };
    entry.hits += row.hits;
    entry.verified_hits += row.verified_hits;
    entry.spoofed_hits += row.spoofed_hits;
    if (row.hits > 0) entry.days.push({ date: row.day, hits: row.hits });
    crawlers.set(row.crawler, entry);
    if (row.hits > 0) purposes.set(row.purpose, (purposes.get(row.purpose) ?? 0) + row.hits);
  }

  const exponent = currencyExponent(input.currency);
  const operators = [];
  const operatorNames = new Set([...fetches.map((row) => row.operator), ...Object.keys(OPERATOR_ASSISTANTS)]);
  for (const operator of operatorNames) {
    const assistants = OPERATOR_ASSISTANTS[operator] ?? [];
    const fetched = fetches.find((row) => row.operator === operator);
    const { gross, refunded, payments, unconvertedDays, unconverted } = await creditedMoney(
      revenue.filter((row) => assistants.includes(row.source)),
      input.currency,
      convert,
    );
    const entry = {
      operator,
      assistants: [...assistants],
      hits: Number(fetched?.hits ?? 0),
      pages_fetched: Number(fetched?.pages ?? 0),
      non_2xx_hits: Number(fetched?.non_2xx_hits ?? 0),
      non_2xx_paths: Number(fetched?.non_2xx_paths ?? 0),
      assistant_visits: visits
        .filter((v) => assistants.includes(v.source))
        .reduce((sum, v) => sum + Number(v.visits), 0),
      conversions: round(
        conversions
          .filter((c) => assistants.includes(c.source))
          .reduce((sum, c) => sum + Number(c.conversions), 0),
        4,
      ),
      payments: round(payments, 4),
      gross: round(gross, exponent),
      refunded: round(refunded, exponent),
      net: round(gross - refunded, exponent),
      unconverted_revenue_days: unconvertedDays,
      unconverted,
    };
    if (entry.hits > 0 || entry.assistant_visits > 0 || entry.conversions > 0) operators.push(entry);
  }
  operators.sort(
    (a, b) =>
      b.hits - a.hits || b.assistant_visits - a.assistant_visits || a.operator.localeCompare(b.operator),
  );

  return {
    site_id: input.snippetKey,
    from: input.from,
    to: input.to,
    attribution_model: input.model,
    currency: input.currency,
    crawlers: [...crawlers.values()].sort((a, b) => b.hits - a.hits || a.crawler.localeCompare(b.crawler)),
    purposes: [...purposes].map(([purpose, hits]) => ({ purpose, hits })).sort((a, b) => b.hits - a.hits),
    top_paths: paths.map((row) => ({
      path: row.path,
      hits: Number(row.hits),
      non_2xx_hits: Number(row.non_2xx_hits),
    })),
    operators,
    address_checks: Object.keys(CRAWLER_RANGE_SOURCES).map((crawler) => {
      const list = lists.find((row) => row.crawler === crawler);
      const fetchedAt = list ? new Date(list.fetched_at) : null;
      return {
        crawler,
        ranges: Number(list?.ranges ?? 0),
        fetched_at: fetchedAt?.toISOString() ?? null,
        in_use: fetchedAt !== null && input.now.getTime() - fetchedAt.getTime() <= RANGES_MAX_AGE_MS,
      };
    }),
  };
}
