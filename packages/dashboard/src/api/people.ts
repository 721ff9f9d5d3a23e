/** A person behind a visitor handle and the trail of one of their visits. */
import { useQuery } from '@tanstack/react-query';
import type { Answer } from './api-types';
import type { Days } from './goals';
import { api, unwrap } from './http';

/**
 * `visits` and `conversions` are newest first, at most 100 each; `refunds` oldest first, each
 * naming its payment's conversion by `event_id`.
 */
export type Person = Answer<'getVisitor'>;
export type PersonRefund = Person['refunds'][number];
export type PersonVisit = Person['visits'][number];
export type PersonConversion = Person['conversions'][number];

export function usePerson(siteId: string, handle: string, days: Days | undefined) {
  return useQuery({
    queryKey: ['person', siteId, handle, days],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/visitors/{handle}', {
          params: { path: { handle }, query: { site_id: siteId, ...days } },
          signal,
        }),
      ),
    enabled: days !== undefined,
  });
}

export type SessionTrail = Answer<'getSession'>;
export type TrailStep = SessionTrail['trail'][number];

/** The pages and events of one visit, in time order; asked for when a visit is opened. */
export function useSessionTrail(siteId: string, sessionId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['session', siteId, sessionId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/sessions/{id}', {
          params: { path: { id: sessionId }, query: { site_id: siteId } },
          signal,
        }),
      ),
    enabled,
    staleTime: 60_000,
  });
}
