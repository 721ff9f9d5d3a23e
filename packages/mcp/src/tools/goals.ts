/** The goal registry: `list_goals`, `create_goal`, `update_goal`, `archive_goal` (no reorder, §4.1). */
import { unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, READS, type ToolSet } from '../tool-kit.js';
import { type BodyOf, type QueryOf, queryFlag, siteId } from './inputs.js';

const goalId = z.uuid().describe('The goal’s `id` from list_goals (not its name)');
const displayName = z
  .string()
  .min(1)
  .max(120)
  .nullable()
  .optional()
  .describe('Label shown instead of the name; null clears');
const emoji = z.string().nullable().optional().describe('Exactly one emoji; null clears');
const sortOrder = z
  .number()
  .int()
  .min(0)
  .max(10000)
  .optional()
  .describe('0 to 10000, ascending; ties by name');

export function addGoalTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('list_goals', {
    title: 'List goals',
    description:
      'The conversion goals of a site (named events such as `signup`), by sort order: id, name, display name, ' +
      'emoji. Goals register themselves on their first event. Use the names with goal_timeseries, ' +
      'goal_properties and goal_visitors, the ids with update_goal and archive_goal.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      include_archived: z.boolean().optional().describe('Also list archived goals; default false'),
    },
    run: async ({ site_id, include_archived }) => {
      const listed = client.GET('/v1/goals', {
        params: {
          query: {
            site_id,
            include_archived: queryFlag(include_archived),
          } satisfies QueryOf<'/v1/goals', 'get'>,
        },
      });
      return answer(await unwrap(listed));
    },
  });

  tools.add('create_goal', {
    title: 'Create a goal',
    description:
      'Declare a goal before its first event arrives. `name` is the event name the site sends ' +
      '(^[a-z][a-z0-9_]*$, up to 64 characters, immutable). A name already on the site is a 409 `goal_exists`; ' +
      'a site holds at most 200 active goals.',
    scope: 'config:write',
    // Adds a goal; a second identical call is refused (goal_exists) and changes nothing.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: {
      site_id: siteId,
      name: z
        .string()
        .regex(/^[a-z][a-z0-9_]*$/)
        .max(64)
        .describe('The event name, e.g. signup'),
      display_name: displayName,
      emoji,
      sort_order: sortOrder,
    },
    run: async ({ site_id, name, display_name, emoji, sort_order }) => {
      const created = client.POST('/v1/goals', {
        body: { site_id, name, display_name, emoji, sort_order } satisfies BodyOf<'/v1/goals', 'post'>,
      });
      return answer(await unwrap(created));
    },
  });

  tools.add('update_goal', {
    title: 'Update a goal',
    description:
      'Change a goal’s display name, emoji or sort order; fields left out stay, null clears. The name itself ' +
      'never changes.',
    scope: 'config:write',
    // Overwrites the previous values; the same call twice changes nothing more.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: { site_id: siteId, goal_id: goalId, display_name: displayName, emoji, sort_order: sortOrder },
    run: async ({ site_id, goal_id, display_name, emoji, sort_order }) =>
      answer(
        await unwrap(
          client.PATCH('/v1/goals/{id}', {
            params: { path: { id: goal_id } },
            body: { site_id, display_name, emoji, sort_order } satisfies BodyOf<'/v1/goals/{id}', 'patch'>,
          }),
        ),
      ),
  });

  tools.add('archive_goal', {
    title: 'Archive a goal',
    description:
      'Hide a goal from lists and reports. Nothing is deleted: events with its name keep being recorded, and ' +
      'the dashboard can unarchive it.',
    scope: 'config:write',
    // Removes the goal from every list; archiving it again changes nothing more.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: { site_id: siteId, goal_id: goalId },
    run: async ({ site_id, goal_id }) => {
      await unwrap(
        client.DELETE('/v1/goals/{id}', {
          params: { path: { id: goal_id }, query: { site_id } satisfies QueryOf<'/v1/goals/{id}', 'delete'> },
        }),
      );
      return answer({ archived: true, goal_id });
    },
  });
}
