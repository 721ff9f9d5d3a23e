/** Goals (interface §2.2–2.5, §4.1): the registry of a site and the reports of one goal. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './http';

export interface Goal {
  id: string;
  site_id: string;
  name: string;
  display_name: string | null;
  emoji: string | null;
  sort_order: number;
  created_at: string;
  archived_at: string | null;
}

/** What a person reads for a goal: its display name when set, else its event name. */
export const goalLabel = (goal: Pick<Goal, 'name' | 'display_name'>) => goal.display_name ?? goal.name;

/** Every goal of the site, archived ones included (they carry `archived_at`), in `sort_order`. */
export const goalsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['goals', siteId],
    queryFn: ({ signal }) =>
      api<{ goals: Goal[] }>('GET', '/v1/goals', {
        query: { site_id: siteId, include_archived: 'true' },
        signal,
      }).then((answer) => answer.goals),
  });

export const createGoal = (
  siteId: string,
  body: { name: string; display_name?: string | null; emoji?: string | null },
) => api<{ goal: Goal }>('POST', '/v1/goals', { body: { site_id: siteId, ...body } }).then((a) => a.goal);

export const updateGoal = (
  siteId: string,
  id: string,
  body: { display_name?: string | null; emoji?: string | null },
) =>
  api<{ goal: Goal }>('PATCH', `/v1/goals/${id}`, { body: { site_id: siteId, ...body } }).then((a) => a.goal);

/** Gives the listed goals `sort_order` 0, 1, 2… in the order given. */
export const reorderGoals = (siteId: string, goalIds: string[]) =>
  api<{ goals: Goal[] }>('PATCH', '/v1/goals/reorder', { body: { site_id: siteId, goal_ids: goalIds } });

export const archiveGoal = (siteId: string, id: string) =>
  api<void>('DELETE', `/v1/goals/${id}`, { query: { site_id: siteId } });

export const unarchiveGoal = (siteId: string, id: string) =>
  api<{ goal: Goal }>('POST', `/v1/goals/${id}/unarchive`, { body: { site_id: siteId } });

/** Inclusive UTC days of a goal report. */
export interface Days {
  from: string;
  to: string;
}

export interface GoalSeries {
  from: string;
  to: string;
  series: { goal_name: string; points: { date: string; completions: number }[]; total: number }[];
}

export function useGoalSeries(siteId: string, days: Days | undefined) {
  return useQuery({
    queryKey: ['goal-series', siteId, days],
    queryFn: ({ signal }) =>
      api<GoalSeries>('GET', '/v1/goals/timeseries', { query: { site_id: siteId, ...days }, signal }),
    enabled: days !== undefined,
    placeholderData: keepPreviousData,
  });
}

export interface GoalProperties {
  properties: { key: string; values: { value: string; count: number }[] }[];
}

export function useGoalProperties(siteId: string, name: string, days: Days | undefined) {
  return useQuery({
    queryKey: ['goal-properties', siteId, name, days],
    queryFn: ({ signal }) =>
      api<GoalProperties>('GET', `/v1/goals/${encodeURIComponent(name)}/properties`, {
        query: { site_id: siteId, ...days },
        signal,
      }),
    enabled: days !== undefined,
    placeholderData: keepPreviousData,
  });
}

export interface Entry {
  ai_source: string;
  source_kind: string;
  source_name: string;
  campaign: string;
  ref: string;
  url: string;
}

export interface VisitorRow {
  handle: string;
  label: { name: string; initials: string; short_id: string };
  first_seen: string;
  last_seen: string;
  session_count: number;
  pageviews: number;
  active_time_sec: number;
  is_new: boolean;
  entry: Entry;
  device: { device_type: string; os: string; browser: string };
  location: { country_code: string; city: string };
  revenue: { total_cents: number; currency: string; conversion_count: number };
}

export interface GoalVisitors {
  visitors: VisitorRow[];
  page: number;
  page_size: number;
  has_more: boolean;
  total_count: number;
  identity_merge_complete: boolean;
}

export const PEOPLE_PAGE_SIZE = 20;

export function useGoalVisitors(siteId: string, name: string, days: Days | undefined, page: number) {
  return useQuery({
    queryKey: ['goal-visitors', siteId, name, days, page],
    queryFn: ({ signal }) =>
      api<GoalVisitors>('GET', `/v1/goals/${encodeURIComponent(name)}/visitors`, {
        query: { site_id: siteId, ...days, page, page_size: PEOPLE_PAGE_SIZE },
        signal,
      }),
    enabled: days !== undefined,
    placeholderData: keepPreviousData,
  });
}
