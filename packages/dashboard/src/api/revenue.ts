/** Attributed revenue (`GET /v1/revenue`) and the conversion listing (`GET /v1/conversions`, interface §4.5). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Answer } from './api-types';
import { api } from './http';
import type { AttributionModel } from './types';

export type RevenueReport = Answer<'getRevenue'>;
export type RevenueFigures = RevenueReport['totals'];

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

/** `rate_day`, `rates_as_of` and `rates_stale` are spelled out until the client is regenerated. */
type ListedConversion = Answer<'listConversions'>['conversions'][number] & { rate_day: string | null };
export type ConversionPage = Omit<Answer<'listConversions'>, 'conversions'> & {
  conversions: ListedConversion[];
  rates_as_of: string | null;
  rates_stale: boolean;
};
export type ConversionRow = ListedConversion;

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
