/**
 * Request and response schemas of the visitor reports (interface §2.5, §4.1). Query strings are
 * strict: an unknown parameter is a 422 naming it, like any malformed value. `site_id`, `from`
 * and `to` are the goal reports' own (goals.schemas.ts), so every goals endpoint reads them alike.
 */
import { z } from 'zod';
import { reportQuery } from '../goals/goals.schemas.js';
import { queryInteger } from '../http/schemas.js';
import { MAX_PAGE_SIZE } from './visitors.service.js';

/** `site_id`, `from`, `to` exactly as the other goal reports take them, plus paging. */
export const goalVisitorsQuery = z.strictObject({
  ...reportQuery.shape,
  page: queryInteger(1, 1_000_000).optional().describe('1-based, default 1'),
  page_size: queryInteger(1, MAX_PAGE_SIZE).optional().describe('1 to 100, default 50'),
});

export const visitorHandleParams = z.strictObject({
  handle: z.string().describe('A `vh_` handle from the goal visitors list; anything else answers 404'),
});

export const visitorProfileQuery = z.strictObject({
  site_id: reportQuery.shape.site_id.optional().describe('When given, it must be the site of the handle'),
  from: reportQuery.shape.from.describe('First day (UTC), inclusive. Default: six days before `to`'),
  to: reportQuery.shape.to.describe('Last day (UTC), inclusive. Default: today'),
});

const entrySchema = z.object({
  ai_source: z.string(),
  source_kind: z.string(),
  source_name: z.string(),
  campaign: z.string(),
  ref: z.string(),
  url: z.string(),
});
const deviceSchema = z.object({ device_type: z.string(), os: z.string(), browser: z.string() });
const locationSchema = z.object({ country_code: z.string(), city: z.string() });

const rowFields = {
  handle: z.string().describe('Opaque `vh_` handle; pass it to GET /v1/visitors/{handle}'),
  label: z.object({ name: z.string(), initials: z.string(), short_id: z.string() }),
  first_seen: z.string(),
  last_seen: z.string(),
  session_count: z.number().int().describe('Visits overlapping the window, not limited to the goal'),
  pageviews: z.number().int(),
  active_time_sec: z.number().int(),
  is_new: z.boolean().describe("The person's first sighting falls inside the window"),
  entry: entrySchema.describe("Source of the person's first visit in the window"),
  device: deviceSchema.describe('Of the latest visit in the window'),
  location: locationSchema.describe('Of the latest visit in the window'),
  revenue: z
    .object({ total_cents: z.number().int(), currency: z.string(), conversion_count: z.number().int() })
    .describe(
      "Conversion events of the person in the window. `total_cents` sums their values in the site's " +
        'currency; other currencies are converted at the ECB rate of their day, and a value whose ' +
        'currency has no rate on record is left out of the sum (its event still counts)',
    ),
  client_revenue: z.null(),
  latest_session_id: z.uuid(),
};

export const visitorRowSchema = z.object(rowFields);

export const goalVisitorsSchema = z.object({
  visitors: z.array(visitorRowSchema),
  goal_name: z.string(),
  from: z.string(),
  to: z.string(),
  page: z.number().int(),
  page_size: z.number().int(),
  has_more: z.boolean(),
  total_count: z.number().int().describe('People, not completions'),
  identity_merge_complete: z.boolean(),
});

export const visitorProfileSchema = z.object({
  ...rowFields,
  first_seen: z.string().nullable(),
  last_seen: z.string().nullable(),
  latest_session_id: z.uuid().nullable().describe('Null when the person has no visit in the window'),
  from: z.string(),
  to: z.string(),
  identity_merge_complete: z.boolean(),
  visits: z
    .array(
      z.object({
        id: z.uuid(),
        started_at: z.string(),
        last_activity_at: z.string(),
        pageviews: z.number().int(),
        active_time_sec: z.number().int(),
        entry: entrySchema,
        device: deviceSchema,
        location: locationSchema,
      }),
    )
    .describe('Visits in the window, newest first, at most 100'),
  conversions: z
    .array(
      z.object({
        event_id: z.string(),
        name: z.string(),
        occurred_at: z.string(),
        value_cents: z.number().int().nullable().describe('Minor units of `currency`'),
        currency: z.string().nullable(),
      }),
    )
    .describe('Conversion events in the window, newest first, at most 100'),
});
