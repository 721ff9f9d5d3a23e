/** The AI visibility report computed plainly from the dataset, with DESIGN.md §4's models written out. */
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import {
  AGENTS,
  at,
  CONVERSIONS,
  type Conversion,
  HITS,
  type Model,
  RATES,
  REFUND,
  type Source,
  VISITS,
  type Visit,
} from './ai-visibility.dataset.js';

const isAi = (source: Source) => source === 'chatgpt' || source === 'perplexity';

/** Inclusive days as instants: UTC, or America/New_York in May (UTC−4). */
function bounds(from: string, to: string, zone: 'UTC' | 'America/New_York') {
  const offset = zone === 'UTC' ? 0 : 4 * 60 * MINUTE_MS;
  return {
    start: at(`${from}T00:00:00`).getTime() + offset,
    end: at(`${to}T00:00:00`).getTime() + DAY_MS + offset,
  };
}

/** Each touchpoint's weight under the model, written out from DESIGN.md §4. */
function weights(model: Model, touchpoints: Visit[], converted: Date): number[] {
  const n = touchpoints.length;
  if (model === 'first_touch') return touchpoints.map((_, i) => (i === 0 ? 1 : 0));
  if (model === 'last_touch') return touchpoints.map((_, i) => (i === n - 1 ? 1 : 0));
  if (model === 'linear') return touchpoints.map(() => 1 / n);
  const raw = touchpoints.map((tp) => 2 ** (-(converted.getTime() - tp.at.getTime()) / (7 * DAY_MS)));
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / total);
}

const add = (map: Map<string, number>, key: string, amount: number) =>
  map.set(key, (map.get(key) ?? 0) + amount);

/** The key with the largest total, equal totals (to nine decimals) to the first by name. */
function largest(totals: Map<string, number>): string | undefined {
  const scaled = (n: number) => Math.round(n * 1e9);
  return [...totals].sort(([a, x], [b, y]) => scaled(y) - scaled(x) || (a < b ? -1 : 1))[0]?.[0];
}

/**
 * A conversion's money share per page (the weights of its AI touchpoints, by entry page), and
 * the page it counts once on: when the source with the largest total weight is an assistant,
 * the page with the largest part of that assistant's weight.
 */
function pageShares(model: Model, conversion: Conversion) {
  const touchpoints = VISITS.filter(
    (v) =>
      v.visitor === conversion.visitor &&
      v.at <= conversion.at &&
      conversion.at.getTime() - v.at.getTime() <= 30 * DAY_MS,
  ).sort((a, b) => a.at.getTime() - b.at.getTime());
  const shares = new Map<string, number>();
  const bySource = new Map<string, number>();
  const weighted = weights(model, touchpoints, conversion.at).map((weight, i) => ({
    weight,
    visit: touchpoints[i] as Visit,
  }));
  for (const { weight, visit } of weighted) {
    if (weight === 0) continue;
    add(bySource, visit.source, weight);
    if (isAi(visit.source)) add(shares, visit.page, weight);
  }
  const source = largest(bySource);
  const countedOn =
    source && isAi(source as Source)
      ? largest(
          weighted.reduce(
            (pages, { weight, visit }) => (visit.source === source ? add(pages, visit.page, weight) : pages),
            new Map<string, number>(),
          ),
        )
      : undefined;
  return { shares, countedOn };
}

function toUsdCents(minor: number, currency: string): number | null {
  if (currency === 'USD') return minor;
  if (currency === 'GBP') return Math.round((minor / RATES.GBP) * RATES.USD);
  return null;
}

export interface ExpectedRow {
  page: string;
  crawler_hits: { total: number; by_operator: { operator: string; purpose: string; hits: number }[] };
  ai_visits: { total: number; by_assistant: { ai_source: string; visits: number }[] };
  conversions: number;
  revenue_net_cents: number;
}

export function expected(q: { from: string; to: string; zone: 'UTC' | 'America/New_York'; model: Model }) {
  const { start, end } = bounds(q.from, q.to, q.zone);
  const inRange = (d: Date) => d.getTime() >= start && d.getTime() < end;
  const utc = bounds(q.from, q.to, 'UTC');
  const rows = new Map<string, ExpectedRow>();
  const row = (page: string) => {
    const found = rows.get(page) ?? {
      page,
      crawler_hits: { total: 0, by_operator: [] },
      ai_visits: { total: 0, by_assistant: [] },
      conversions: 0,
      revenue_net_cents: 0,
    };
    rows.set(page, found);
    return found;
  };
  for (const hit of HITS) {
    const [operator, rawPurpose] = AGENTS[hit.agent];
    if (operator === '' || hit.at.getTime() < utc.start || hit.at.getTime() >= utc.end) continue;
    const purpose = hit.isPurged ? 'unknown' : rawPurpose;
    const r = row(hit.path.split('?')[0] as string);
    r.crawler_hits.total += 1;
    const entry = r.crawler_hits.by_operator.find((e) => e.operator === operator && e.purpose === purpose);
    if (entry) entry.hits += 1;
    else r.crawler_hits.by_operator.push({ operator, purpose, hits: 1 });
  }
  for (const v of VISITS.filter((v) => isAi(v.source) && inRange(v.at))) {
    const r = row(v.page);
    r.ai_visits.total += 1;
    const entry = r.ai_visits.by_assistant.find((e) => e.ai_source === v.source);
    if (entry) entry.visits += 1;
    else r.ai_visits.by_assistant.push({ ai_source: v.source, visits: 1 });
  }
  let unconvertedJpy = 0;
  for (const conversion of CONVERSIONS) {
    const { shares, countedOn } = pageShares(q.model, conversion);
    const money: [number, string][] = [];
    if (inRange(conversion.at)) {
      if (countedOn) row(countedOn).conversions += 1;
      if (conversion.money) money.push([conversion.money.minor, conversion.money.currency]);
    }
    if (conversion.money?.transaction === 'pi_1' && inRange(REFUND.at)) money.push([-REFUND.minor, 'USD']);
    for (const [minor, currency] of money) {
      const cents = toUsdCents(minor, currency);
      for (const [page, share] of shares) {
        if (cents === null) unconvertedJpy += minor * share;
        else row(page).revenue_net_cents += cents * share;
      }
    }
  }
  const list = [...rows.values()].map((r) => ({
    ...r,
    conversions: Math.round(r.conversions * 10_000) / 10_000,
    revenue_net_cents: Math.round(r.revenue_net_cents),
  }));
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const r of list) {
    r.crawler_hits.by_operator.sort(
      (a, b) => b.hits - a.hits || text(a.operator, b.operator) || text(a.purpose, b.purpose),
    );
    r.ai_visits.by_assistant.sort((a, b) => b.visits - a.visits || text(a.ai_source, b.ai_source));
  }
  return {
    pages: list
      .filter(
        (r) =>
          r.crawler_hits.total + r.ai_visits.total > 0 || r.conversions !== 0 || r.revenue_net_cents !== 0,
      )
      .sort(
        (a, b) =>
          b.ai_visits.total + b.crawler_hits.total - (a.ai_visits.total + a.crawler_hits.total) ||
          text(a.page, b.page),
      ),
    unconverted:
      unconvertedJpy === 0 ? [] : [{ currency: 'JPY', revenue_net_cents: Math.round(unconvertedJpy) }],
  };
}
