/**
 * The crawler report: what AI crawlers fetched, and per AI operator the loop from crawling to
 * money — pages its crawlers fetched, visits its assistant sent, conversions and net revenue
 * credited to those visits under the chosen attribution model.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { currencyExponent } from '../lib/money.js';
import { CRAWLER_RANGE_SOURCES } from './crawler-ranges.data.js';
import { RANGES_MAX_AGE_MS } from './crawler-ranges.js';
import * as store from './crawler-report.store.js';
import { OPERATOR_ASSISTANTS } from './crawlers.data.js';

/** Converts fractional minor units of one currency into major units of another on a day. */
export type Convert = (amountMinor: number, from: string, to: string, day: string) => Promise<number | null>;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

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
    let gross = 0;
    let refunded = 0;
    let payments = 0;
    let unconverted = 0;
    for (const row of revenue.filter((r) => assistants.includes(r.source))) {
      const grossMajor = await convert(Number(row.gross_minor), row.currency, input.currency, row.day);
      const refundedMajor = await convert(Number(row.refunded_minor), row.currency, input.currency, row.day);
      if (grossMajor === null || refundedMajor === null) {
        unconverted += 1;
        continue;
      }
      gross += grossMajor;
      refunded += refundedMajor;
      payments += Number(row.conversions);
    }
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
      unconverted_revenue_days: unconverted,
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
