/**
 * One row per page from the parts of the report: crawler hits, assistant visits, and the
 * conversions and money credited through those visits. Ordered by AI visits plus crawler hits,
 * most first, then by path (code point order, as the clients sort).
 */
import type { AiVisitRow } from './ai-visits-by-page.query.js';
import type { CrawlerPageRow } from './crawler-hits-by-page.query.js';
import type { PageMoney } from './page-revenue.js';

export interface PageRow {
  page: string;
  crawler_hits: { total: number; by_operator: { operator: string; purpose: string; hits: number }[] };
  ai_visits: { total: number; by_assistant: { ai_source: string; visits: number }[] };
  conversions: number;
  revenue_net_cents: number;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const roundMinor = (value: number) => Math.round(value) + 0;

export function buildPageRows(parts: {
  crawlers: readonly CrawlerPageRow[];
  visits: readonly AiVisitRow[];
  money: PageMoney;
}): PageRow[] {
  const rows = new Map<string, PageRow>();
  const rowOf = (page: string) => {
    let row = rows.get(page);
    if (!row) {
      row = {
        page,
        crawler_hits: { total: 0, by_operator: [] },
        ai_visits: { total: 0, by_assistant: [] },
        conversions: 0,
        revenue_net_cents: 0,
      };
      rows.set(page, row);
    }
    return row;
  };
  for (const { page, operator, purpose, hits } of parts.crawlers) {
    const row = rowOf(page);
    row.crawler_hits.total += hits;
    row.crawler_hits.by_operator.push({ operator, purpose, hits });
  }
  for (const { page, ai_source, visits } of parts.visits) {
    const row = rowOf(page);
    row.ai_visits.total += visits;
    row.ai_visits.by_assistant.push({ ai_source, visits });
  }
  for (const [page, conversions] of parts.money.conversions) rowOf(page).conversions = conversions;
  for (const [page, revenue] of parts.money.revenue) rowOf(page).revenue_net_cents = roundMinor(revenue);

  const list = [...rows.values()].filter(
    (row) =>
      row.crawler_hits.total > 0 ||
      row.ai_visits.total > 0 ||
      row.conversions !== 0 ||
      row.revenue_net_cents !== 0,
  );
  for (const row of list) {
    row.crawler_hits.by_operator.sort(
      (a, b) => b.hits - a.hits || byText(a.operator, b.operator) || byText(a.purpose, b.purpose),
    );
    row.ai_visits.by_assistant.sort((a, b) => b.visits - a.visits || byText(a.ai_source, b.ai_source));
  }
  return list.sort(
    (a, b) =>
      b.ai_visits.total + b.crawler_hits.total - (a.ai_visits.total + a.crawler_hits.total) ||
      byText(a.page, b.page),
  );
}
