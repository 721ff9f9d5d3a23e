/**
 * `GET /v1/ai-visibility`: per page, what AI crawlers fetched, the visits assistants sent, and
 * the conversions and net revenue credited to those visits under an attribution model. Checks
 * the zone and range, resolves the site, has each part read, and pages the rows.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { badInput } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import type { RatesService } from '../rates/rates.service.js';
import { type ClickHouseReads, type Readers, readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { addDays, dayIn, resolveTimezone, toDate } from '../reporting/date-range.js';
import { rangeInstants } from '../reporting/grain.sql.js';
import type { SitesService } from '../sites/sites.service.js';
import { chAiVisitsByPage, chRawCrawlerHitsByPage } from './ai-visibility.ch.query.js';
import {
  AI_VISIBILITY_DEFAULT_DAYS,
  AI_VISIBILITY_DEFAULT_LIMIT,
  AI_VISIBILITY_MAX_DAYS,
  type AiVisibilityQuery,
} from './ai-visibility.schemas.js';
import { aiVisitsByPage } from './ai-visits-by-page.query.js';
import { crawlerHitsByPage, crawlerInstants, rawCrawlerHitsByPage } from './crawler-hits-by-page.query.js';
import {
  aiCreditedConversions,
  aiCreditedPayments,
  aiCreditedRefunds,
  type ConversionRef,
  creditedVisits,
} from './credited-conversions.query.js';
import { pageSharesOf } from './page-credit.js';
import { pageMoneyOf } from './page-revenue.js';
import { buildPageRows, roundMinor } from './page-rows.js';

/** Inclusive days: the defaults, in order, at most the longest window. */
function resolveRange(query: { from?: string; to?: string }, today: string) {
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -(AI_VISIBILITY_DEFAULT_DAYS - 1));
  if (from > to) throw badInput('from', `from (${from}) must not be after to (${to})`, 'query');
  const days = Math.round((toDate(to).getTime() - toDate(from).getTime()) / 86_400_000) + 1;
  if (days > AI_VISIBILITY_MAX_DAYS) {
    throw badInput(
      'from',
      `The range is ${days} days; at most ${AI_VISIBILITY_MAX_DAYS} are allowed`,
      'query',
    );
  }
  return { from, to };
}

/**
 * The report's traffic: crawler hits per page, operator and purpose, and AI visits per entry page.
 * The raw hits and visits come from ClickHouse when it can answer, else from PostgreSQL; the daily
 * path rollup that completes the hits is always PostgreSQL's.
 */
async function readTraffic(
  readers: Readers,
  w: { siteId: string; from: string; to: string; start: Date; end: Date },
) {
  const from = new Date(Math.min(w.start.getTime(), crawlerInstants(w).start.getTime()));
  const fromClickHouse = await readClickHouse(readers, w.siteId, from, async (ch, scope) => {
    const [split, visits] = await Promise.all([
      chRawCrawlerHitsByPage(ch, scope, crawlerInstants(w)),
      chAiVisitsByPage(ch, scope, w),
    ]);
    return { split, visits };
  });
  const [split, visits] = fromClickHouse
    ? [fromClickHouse.split, fromClickHouse.visits]
    : await Promise.all([rawCrawlerHitsByPage(readers.db, w), aiVisitsByPage(readers.db, w)]);
  return { crawlers: await crawlerHitsByPage(readers.db, w, split), visits };
}

export function createAiVisibilityService({
  db,
  clock,
  sites,
  rates,
  clickhouse,
}: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  rates: Pick<RatesService, 'convertMinor'>;
  /** ClickHouse for the traffic this report reads, when CLICKHOUSE_URL is set. */
  clickhouse?: ClickHouseReads;
}) {
  return {
    async report(principal: Principal, query: AiVisibilityQuery) {
      const timezone = resolveTimezone(query.timezone);
      const { from, to } = resolveRange(query, dayIn(timezone, clock.now()));
      // Reads of what was recorded keep working while a deletion is scheduled.
      const site = await sites.resolveSite(principal, query.site_id, { includeScheduled: true });
      const model = query.attribution_model ?? site.attribution_model;
      const { start, end } = await rangeInstants(db, { from, to, timezone });
      const window = { siteId: site.id, model, start, end };
      const [{ crawlers, visits }, conversions, payments, refunds] = await Promise.all([
        readTraffic({ db, clickhouse }, { siteId: site.id, from, to, start, end }),
        aiCreditedConversions(db, window),
        aiCreditedPayments(db, window),
        aiCreditedRefunds(db, window),
      ]);
      const targets = new Map<string, ConversionRef>();
      for (const row of [...conversions, ...payments, ...refunds]) targets.set(row.event_id, row);
      const credited = await creditedVisits(db, window, [...targets.values()]);
      const convertedAt = new Map([...targets].map(([id, row]) => [id, new Date(row.at)]));
      const countedFor = new Map(
        conversions.flatMap((row) =>
          row.counted_source ? [[row.event_id, row.counted_source] as const] : [],
        ),
      );
      const shares = pageSharesOf(model, credited, convertedAt, countedFor);
      const money = await pageMoneyOf(
        { conversions, payments, refunds, shares, currency: site.currency },
        (...args) => rates.convertMinor(...args),
      );

      let rows = buildPageRows({ crawlers, visits, money });
      if (query.not_visited)
        rows = rows.filter((row) => row.crawler_hits.total > 0 && row.ai_visits.total === 0);
      const offset = query.offset ?? 0;
      return {
        pages: rows.slice(offset, offset + (query.limit ?? AI_VISIBILITY_DEFAULT_LIMIT)),
        meta: {
          date_range: [from, to] as [string, string],
          timezone,
          attribution_model: model,
          currency: site.currency,
          total_rows: rows.length,
          unconverted: [...money.unconverted]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([currency, amount]) => ({ currency, revenue_net_cents: roundMinor(amount) })),
          unplaced: {
            conversions: money.unplaced.conversions,
            revenue_net_cents: roundMinor(money.unplaced.revenue),
          },
        },
      };
    },
  };
}

export type AiVisibilityService = ReturnType<typeof createAiVisibilityService>;
