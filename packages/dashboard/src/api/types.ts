/**
 * The shapes of the `/v1` answers the site pages share, from the client generated out of the
 * server's OpenAPI document (see api-types.ts).
 */
import type { Answer, Body } from './api-types';

export type Me = Answer<'getMe'>;
export type Role = Me['role'];
export type DashboardSite = Answer<'listDashboardSites'>['sites'][number];
export type Site = Answer<'getSite'>;
export type AttributionModel = Site['attribution_model'];

/**
 * Hand-written: the OpenAPI document gives filters as `unknown[]` (the server parses them
 * itself), and the filter bar builds and reads them as these triples.
 */
export type StatsFilter = [
  operator: 'is' | 'is_not' | 'contains' | 'matches',
  dimension: string,
  values: string[],
];

export type StatsQuery = Omit<Body<'queryStats'>, 'filters'> & { filters?: StatsFilter[] };
export type StatsMetric = StatsQuery['metrics'][number];
export type StatsAnswer = Answer<'queryStats'>;
export type StatsRow = StatsAnswer['results'][number];
export type Realtime = Answer<'getRealtime'>;
