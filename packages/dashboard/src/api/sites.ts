/** Sites (interface §4.2) and the stats reads the site pages share. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Answer, Body } from './api-types';
import { api, unwrap } from './http';
import type { StatsQuery } from './types';

export const dashboardSitesQuery = queryOptions({
  queryKey: ['dashboard-sites'],
  queryFn: () => unwrap(api.GET('/v1/dashboard/sites')).then((a) => a.sites),
});

export const siteQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['site', siteId],
    queryFn: () => unwrap(api.GET('/v1/sites/{siteId}', { params: { path: { siteId } } })),
  });

/** Hits refused in the last hour, by reason (bots, for now). */
export const siteRefusalsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['site-refusals', siteId],
    queryFn: () => unwrap(api.GET('/v1/sites/{siteId}/refusals', { params: { path: { siteId } } })),
  });

export type NewSite = Answer<'createSite'>;

export const createSite = (body: Body<'createSite'>) => unwrap(api.POST('/v1/sites', { body }));

/** Every report of the dashboard includes imported days where the query can use them. */
export const queryStats = (query: StatsQuery, signal?: AbortSignal) =>
  unwrap(
    api.POST('/v1/stats/query', { body: { ...query, include: { imports: true, ...query.include } }, signal }),
  );

/** One stats query, cached by its body; the previous answer stays on screen while a new one loads. */
export function useStats(query: StatsQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['stats', query],
    queryFn: ({ signal }) => queryStats(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    enabled: options.enabled ?? true,
  });
}

export function useRealtime(siteId: string) {
  return useQuery({
    queryKey: ['realtime', siteId],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/stats/realtime', { params: { query: { site_id: siteId } }, signal })),
    refetchInterval: 30_000,
  });
}

/** Currencies offered first where a site's currency is chosen; the server takes any it holds rates for. */
export const COMMON_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CAD',
  'AUD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'BRL',
  'MXN',
  'INR',
  'CNY',
  'SGD',
  'HKD',
  'NZD',
  'ZAR',
];

/** The retention a site may choose (days; the API takes any whole number from 30 up to the last). */
export const EVENTS_RETENTION_CHOICES = [30, 90, 180, 365];
export const VISITS_RETENTION_CHOICES = [30, 90, 180, 365, 730];
