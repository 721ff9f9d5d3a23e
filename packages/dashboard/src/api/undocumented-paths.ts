/**
 * The one route the dashboard calls that the interface leaves out of the OpenAPI document on
 * purpose (the goals' order), typed by hand in the generated paths' shape so it goes through the
 * same client as the rest.
 */
import type { operations } from '@touchtrail/client';

type Goal = operations['listGoals']['responses'][200]['content']['application/json']['goals'][number];

export interface UndocumentedPaths {
  '/v1/goals/reorder': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    patch: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { 'application/json': { site_id: string; goal_ids: string[] } } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': { goals: Goal[] } } };
      };
    };
  };
}
