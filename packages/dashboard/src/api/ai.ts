/** AI crawlers (`GET /v1/crawlers`) and AI visibility per page (`GET /v1/ai-visibility`). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { QueryOf } from '@touchtrail/client';
import type { Answer } from './api-types';
import { api, unwrap } from './http';
import type { AttributionModel } from './types';

export type CrawlerReport = Answer<'getCrawlerReport'>;
export type VisibilityReport = Answer<'getAiVisibility'>;
export type VisibilityPage = VisibilityReport['pages'][number];

type Window = Required<Pick<QueryOf<'/v1/crawlers', 'get'>, 'from' | 'to'>>;

export function useCrawlers(siteId: string, window: Window, model: AttributionModel | undefined) {
  return useQuery({
    queryKey: ['crawlers', siteId, window, model ?? null],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/crawlers', {
          params: { query: { site_id: siteId, ...window, attribution_model: model } },
          signal,
        }),
      ),
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
      unwrap(
        api.GET('/v1/ai-visibility', {
          params: {
            query: {
              site_id: siteId,
              ...window,
              attribution_model: model,
              limit: 50,
              ...(notVisited ? { not_visited: 'true' } : {}),
            },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
