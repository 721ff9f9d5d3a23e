/** Goals (interface §2.2–2.5, §4.1): the registry of a site and the reports of one goal. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { QueryOf } from '@touchtrail/client';
import type { Answer, Body } from './api-types';
import { api, unwrap } from './http';

export type Goal = Answer<'listGoals'>['goals'][number];

/** What a person reads for a goal: its display name when set, else its event name. */
export const goalLabel = (goal: Pick<Goal, 'name' | 'display_name'>) => goal.display_name ?? goal.name;

/** Every goal of the site, archived ones included (they carry `archived_at`), in `sort_order`. */
export const goalsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['goals', siteId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/goals', { params: { query: { site_id: siteId, include_archived: 'true' } }, signal }),
      ).then((answer) => answer.goals),
  });

export const createGoal = (siteId: string, body: Omit<Body<'createGoal'>, 'site_id'>) =>
  unwrap(api.POST('/v1/goals', { body: { site_id: siteId, ...body } })).then((a) => a.goal);

export const updateGoal = (siteId: string, id: string, body: Omit<Body<'updateGoal'>, 'site_id'>) =>
  unwrap(api.PATCH('/v1/goals/{id}', { params: { path: { id } }, body: { site_id: siteId, ...body } })).then(
    (a) => a.goal,
  );

/** Gives the listed goals `sort_order` 0, 1, 2… in the order given. */
export const reorderGoals = (siteId: string, goalIds: string[]) =>
  unwrap(api.PATCH('/v1/goals/reorder', { body: { site_id: siteId, goal_ids: goalIds } }));

export const archiveGoal = (siteId: string, id: string) =>
  unwrap(api.DELETE('/v1/goals/{id}', { params: { path: { id }, query: { site_id: siteId } } }));

export const unarchiveGoal = (siteId: string, id: string) =>
  unwrap(api.POST('/v1/goals/{id}/unarchive', { params: { path: { id } }, body: { site_id: siteId } }));

/** Inclusive UTC days of a goal report. */
export type Days = Required<Pick<QueryOf<'/v1/goals/timeseries', 'get'>, 'from' | 'to'>>;

export type GoalSeries = Answer<'getGoalTimeseries'>;

export function useGoalSeries(siteId: string, days: Days | undefined) {
  return useQuery({
    queryKey: ['goal-series', siteId, days],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/v1/goals/timeseries', { params: { query: { site_id: siteId, ...days } }, signal })),
    enabled: days !== undefined,
    placeholderData: keepPreviousData,
  });
}

export type GoalProperties = Answer<'getGoalProperties'>;

export function useGoalProperties(siteId: string, name: string, days: Days | undefined) {
  return useQuery({
    queryKey: ['goal-properties', siteId, name, days],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/goals/{name}/properties', {
          params: { path: { name }, query: { site_id: siteId, ...days } },
          signal,
        }),
      ),
    enabled: days !== undefined,
    placeholderData: keepPreviousData,
  });
}

export type GoalVisitors = Answer<'listGoalVisitors'>;
export type VisitorRow = GoalVisitors['visitors'][number];
export type Entry = VisitorRow['entry'];

export const PEOPLE_PAGE_SIZE = 20;

export function useGoalVisitors(siteId: string, name: string, days: Days | undefined, page: number) {
  return useQuery({
    queryKey: ['goal-visitors', siteId, name, days, page],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/v1/goals/{name}/visitors', {
          params: { path: { name }, query: { site_id: siteId, ...days, page, page_size: PEOPLE_PAGE_SIZE } },
          signal,
        }),
      ),
    enabled: days !== undefined,
    placeholderData: keepPreviousData,
  });
}
