/** A person behind a visitor handle and the trail of one of their visits. */
import { useQuery } from '@tanstack/react-query';
import type { Days, Entry, VisitorRow } from './goals';
import { api } from './http';

export interface PersonVisit {
  id: string;
  started_at: string;
  last_activity_at: string;
  pageviews: number;
  active_time_sec: number;
  entry: Entry;
  device: { device_type: string; os: string; browser: string };
  location: { country_code: string; city: string };
}

export interface PersonConversion {
  event_id: string;
  name: string;
  occurred_at: string;
  value_cents: number | null;
  currency: string | null;
}

export interface Person extends Omit<VisitorRow, 'first_seen' | 'last_seen'> {
  first_seen: string | null;
  last_seen: string | null;
  from: string;
  to: string;
  identity_merge_complete: boolean;
  /** Newest first, at most 100. */
  visits: PersonVisit[];
  /** Newest first, at most 100. */
  conversions: PersonConversion[];
}

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

export interface TrailStep {
  type: 'pageview' | 'custom' | 'server' | 'payment';
  name: string;
  timestamp: string;
  page: string | null;
  time_on_page_sec: number | null;
  value_cents: number | null;
  currency: string | null;
  is_conversion: boolean;
}

export interface SessionTrail {
  id: string;
  trail: TrailStep[];
  trail_truncated: boolean;
}

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
