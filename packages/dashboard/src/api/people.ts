/** A person behind a visitor handle and the trail of one of their visits. */
import { useQuery } from '@tanstack/react-query';
import type { Answer } from './api-types';
import type { Days } from './goals';
import { api } from './http';

/** A refund of one of the person's payments (`event_id` names the payment's conversion). */
export interface PersonRefund {
  event_id: string;
  refunded_at: string;
  amount_cents: number;
  currency: string;
}
/**
 * `visits` and `conversions` are newest first, at most 100 each; `refunds` oldest first (spelled
 * out until the client is regenerated).
 */
export type Person = Answer<'getVisitor'> & { refunds: PersonRefund[] };
export type PersonVisit = Person['visits'][number];
export type PersonConversion = Person['conversions'][number];

export function usePerson(siteId: string, handle: string, days: Days | undefined) {
  return useQuery({
    queryKey: ['person', siteId, handle, days],
    queryFn: ({ signal }) =>
      api<Person>('GET', `/v1/visitors/${encodeURIComponent(handle)}`, {
        query: { site_id: siteId, ...days },
        signal,
      }),
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
      api<SessionTrail>('GET', `/v1/sessions/${sessionId}`, { query: { site_id: siteId }, signal }),
    enabled,
    staleTime: 60_000,
  });
}
