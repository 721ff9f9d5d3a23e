/** Attributed revenue (`GET /v1/revenue`) and the conversion listing (`GET /v1/conversions`, interface §4.5). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { QueryOf } from '@touchtrail/client';
import type { Answer } from './api-types';
import { api, unwrap } from './http';
import type { AttributionModel } from './types';

export type RevenueReport = Answer<'getRevenue'>;
export type RevenueFigures = RevenueReport['totals'];

export function useRevenue(siteId: string, window: { from: string; to: string }, model?: AttributionModel) {
  return useQuery({
    queryKey: ['revenue', siteId, window, model ?? null],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/revenue', {
          params: { query: { site_id: siteId, ...window, attribution_model: model } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export type ConversionPage = Answer<'listConversions'>;
export type ConversionRow = ConversionPage['conversions'][number];

/** What the listing narrows by: the window and model it shows, its own filters and the page. */
export type ConversionFilters = Omit<QueryOf<'/v1/conversions', 'get'>, 'site_id' | 'page_size'>;

export function useConversions(siteId: string, filters: ConversionFilters) {
  return useQuery({
    queryKey: ['conversions', siteId, filters],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/conversions', {
          params: { query: { site_id: siteId, page_size: 25, ...filters } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
