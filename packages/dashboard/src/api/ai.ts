/** AI crawlers (`GET /v1/crawlers`) and AI visibility per page (`GET /v1/ai-visibility`). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './http';
import type { AttributionModel } from './types';

export interface CrawlerReport {
  currency: string;
  crawlers: {
    crawler: string;
    operator: string;
    purpose: string;
    hits: number;
    verified_hits: number;
    spoofed_hits: number;
  }[];
  purposes: { purpose: string; hits: number }[];
  operators: {
    operator: string;
    assistants: string[];
    hits: number;
    pages_fetched: number;
    non_2xx_hits: number;
    assistant_visits: number;
    conversions: number;
    net: number;
  }[];
  address_checks: { crawler: string; ranges: number; fetched_at: string | null; in_use: boolean }[];
}

export interface VisibilityPage {
  page: string;
  crawler_hits: { total: number; by_operator: { operator: string; purpose: string; hits: number }[] };
  ai_visits: { total: number; by_assistant: { ai_source: string; visits: number }[] };
  conversions: number;
  revenue_net_cents: number;
}

export interface VisibilityReport {
  pages: VisibilityPage[];
  meta: { currency: string; total_rows: number };
}

type Window = { from: string; to: string };

export function useCrawlers(siteId: string, window: Window, model: AttributionModel | undefined) {
  return useQuery({
    queryKey: ['crawlers', siteId, window, model ?? null],
    queryFn: ({ signal }) =>
      api<CrawlerReport>('GET', '/v1/crawlers', {
        query: { site_id: siteId, ...window, attribution_model: model },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useAiVisibility(
  siteId: string,
  window: Window,
  model: AttributionModel | undefined,
  notVisited: boolean,
) {
  return useQuery({
    queryKey: ['ai-visibility', siteId, window, model ?? null, notVisited],
    queryFn: ({ signal }) =>
      api<VisibilityReport>('GET', '/v1/ai-visibility', {
        query: {
          site_id: siteId,
          ...window,
          attribution_model: model,
          limit: 50,
          ...(notVisited ? { not_visited: 'true' } : {}),
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
