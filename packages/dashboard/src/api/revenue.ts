/** Attributed revenue (`GET /v1/revenue`) and the conversion listing (`GET /v1/conversions`, interface §4.5). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './http';
import type { AttributionModel } from './types';

export interface RevenueFigures {
  gross: number;
  refunded: number;
  net: number;
  conversions: number;
  trials: number;
}

export interface RevenueReport {
  attribution_model: AttributionModel;
  currency: string;
  totals: RevenueFigures;
  sources: (RevenueFigures & { source: string })[];
  days: (RevenueFigures & { date: string })[];
  unconverted: { currency: string; gross: number; refunded: number; net: number }[];
}

export function useRevenue(siteId: string, window: { from: string; to: string }, model?: AttributionModel) {
  return useQuery({
    queryKey: ['revenue', siteId, window, model ?? null],
    queryFn: ({ signal }) =>
      api<RevenueReport>('GET', '/v1/revenue', {
        query: { site_id: siteId, ...window, attribution_model: model },
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export interface ConversionRow {
  event_id: string;
  timestamp: string;
  event_name: string;
  source_kind: string;
  source_name: string;
  session_ai_source: string;
  country_code: string;
  ai_source: string | null;
  confidence: number | null;
  visitor_id_short: string;
  value_cents: number;
  currency: string;
  display_value: number | null;
}

export interface ConversionPage {
  conversions: ConversionRow[];
  page: number;
  page_size: number;
  has_more: boolean;
  total_count: number | null;
  event_names: { name: string; count: number }[];
  display_currency: string;
}

export interface ConversionFilters {
  from: string;
  to: string;
  event_name?: string;
  source?: string;
  attribution_model?: AttributionModel;
  page: number;
}

export function useConversions(siteId: string, filters: ConversionFilters) {
  return useQuery({
    queryKey: ['conversions', siteId, filters],
    queryFn: ({ signal }) =>
      api<ConversionPage>('GET', '/v1/conversions', {
        query: { site_id: siteId, page_size: 25, ...filters },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
