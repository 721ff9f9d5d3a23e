/** Funnels: saved step lists of a site and their reports (POST /v1/funnels/query runs a draft). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Answer, Body } from './api-types';
import { api, unwrap } from './http';
import type { StatsFilter } from './types';

export type Funnel = Answer<'getFunnel'>['funnel'];
export type FunnelStep = Funnel['steps'][number];
export type PageMatch = Extract<FunnelStep, { type: 'page' }>['match'];
export type FunnelReport = Answer<'queryFunnel'>;
export type StepFigures = FunnelReport['steps'][number];

export const funnelsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['funnels', siteId],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/funnels', { params: { query: { site_id: siteId } }, signal })).then(
        (answer) => answer.funnels,
      ),
  });

export const funnelQuery = (siteId: string, id: string) =>
  queryOptions({
    queryKey: ['funnel', siteId, id],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/funnels/{id}', { params: { path: { id }, query: { site_id: siteId } }, signal }),
      ).then((answer) => answer.funnel),
  });

export type FunnelDraft = Pick<Funnel, 'name' | 'steps' | 'window_hours'>;

export const createFunnel = (siteId: string, draft: FunnelDraft) =>
  unwrap(api.POST('/v1/funnels', { body: { site_id: siteId, ...draft } })).then((answer) => answer.funnel);

export const updateFunnel = (siteId: string, id: string, draft: FunnelDraft) =>
  unwrap(
    api.PATCH('/v1/funnels/{id}', { params: { path: { id } }, body: { site_id: siteId, ...draft } }),
  ).then((answer) => answer.funnel);

export const deleteFunnel = (siteId: string, id: string) =>
  unwrap(api.DELETE('/v1/funnels/{id}', { params: { path: { id }, query: { site_id: siteId } } }));

export type FunnelBreakdownKey = NonNullable<FunnelQuery['breakdown']>;
/** Filters narrowed to the stats triples the filter bar builds (the schema says `unknown[]`). */
export type FunnelQuery = Omit<Body<'queryFunnel'>, 'filters'> & { filters?: StatsFilter[] };

/** The report of a funnel as drafted (saved or not); nothing is asked while `query` is null. */
export function useFunnelReport(query: FunnelQuery | null) {
  return useQuery({
    queryKey: ['funnel-report', query],
    // Never sent while null: `enabled` holds the query back.
    queryFn: ({ signal }) => unwrap(api.POST('/v1/funnels/query', { body: query as FunnelQuery, signal })),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
