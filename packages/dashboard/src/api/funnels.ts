/** Funnels: saved step lists of a site and their reports (POST /v1/funnels/query runs a draft). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './http';
import type { StatsFilter } from './types';

export type PageMatch = 'is' | 'contains' | 'matches';
export type FunnelStep =
  | { type: 'page'; match: PageMatch; value: string }
  | { type: 'event'; name: string; property?: { key: string; value: string } };

export interface Funnel {
  id: string;
  name: string;
  steps: FunnelStep[];
  window_hours: number;
  created_at: string;
  updated_at: string;
}

export type FunnelBreakdownKey = 'visit:channel' | 'visit:ai_source';

export interface StepFigures {
  index: number;
  label: string;
  visitors: number;
  conversion_from_previous: number;
  conversion_from_first: number;
  drop_off: number;
  median_seconds_to_next: number | null;
}

export interface FunnelReport {
  steps: StepFigures[];
  breakdown: { value: string | null; steps: StepFigures[] }[] | null;
  meta: { date_range: [string, string]; window_hours: number };
}

export const funnelsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['funnels', siteId],
    queryFn: ({ signal }) =>
      api<{ funnels: Funnel[] }>('GET', '/v1/funnels', { query: { site_id: siteId }, signal }).then(
        (answer) => answer.funnels,
      ),
  });

export const funnelQuery = (siteId: string, id: string) =>
  queryOptions({
    queryKey: ['funnel', siteId, id],
    queryFn: ({ signal }) =>
      api<{ funnel: Funnel }>('GET', `/v1/funnels/${encodeURIComponent(id)}`, {
        query: { site_id: siteId },
        signal,
      }).then((answer) => answer.funnel),
  });

export type FunnelDraft = Pick<Funnel, 'name' | 'steps' | 'window_hours'>;

export const createFunnel = (siteId: string, draft: FunnelDraft) =>
  api<{ funnel: Funnel }>('POST', '/v1/funnels', { body: { site_id: siteId, ...draft } }).then(
    (answer) => answer.funnel,
  );

export const updateFunnel = (siteId: string, id: string, draft: FunnelDraft) =>
  api<{ funnel: Funnel }>('PATCH', `/v1/funnels/${encodeURIComponent(id)}`, {
    body: { site_id: siteId, ...draft },
  }).then((answer) => answer.funnel);

export const deleteFunnel = (siteId: string, id: string) =>
  api<void>('DELETE', `/v1/funnels/${encodeURIComponent(id)}`, { query: { site_id: siteId } });

export interface FunnelQuery {
  site_id: string;
  steps: FunnelStep[];
  window_hours: number;
  date_range: string | [string, string];
  timezone?: string;
  filters?: StatsFilter[];
  breakdown?: FunnelBreakdownKey;
}

/** The report of a funnel as drafted (saved or not); nothing is asked while `query` is null. */
export function useFunnelReport(query: FunnelQuery | null) {
  return useQuery({
    queryKey: ['funnel-report', query],
    queryFn: ({ signal }) => api<FunnelReport>('POST', '/v1/funnels/query', { body: query, signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
