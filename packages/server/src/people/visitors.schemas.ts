/**
 * Request and response schemas of the visitor reports (interface §2.5, §4.1) and of the people
 * listing. Query strings are strict: an unknown parameter is a 422 naming it, like any malformed
 * value. `site_id`, `from` and `to` are the goal reports' own (goals.schemas.ts), so every
 * visitor report reads them alike.
 */
import { z } from 'zod';
import { reportQuery } from '../goals/goals.schemas.js';
import { queryInteger } from '../http/schemas.js';
import { PEOPLE_SORTS } from './people-listing.query.js';
import {
  goalVisitorsExample,
  peopleListingExample,
  VISITOR_HANDLE_EXAMPLE,
  visitorProfileExample,
} from './visitors.examples.js';
import { MAX_PAGE_SIZE, PEOPLE_WINDOW } from './visitors.service.js';

/** `site_id`, `from`, `to` exactly as the other goal reports take them, plus paging. */
export const goalVisitorsQuery = z.strictObject({
  ...reportQuery.shape,
  page: queryInteger(1, 1_000_000).optional().describe('1-based, default 1'),
  page_size: queryInteger(1, MAX_PAGE_SIZE).optional().describe('1 to 100, default 50'),
});

export const visitorHandleParams = z.strictObject({
  handle: z
    .string()
    .describe('A `vh_` handle from the goal visitors list; anything else answers 404')
    .meta({ examples: [VISITOR_HANDLE_EXAMPLE] }),
});

export const visitorProfileQuery = z.strictObject({
  site_id: reportQuery.shape.site_id.optional().describe('When given, it must be the site of the handle'),
  from: reportQuery.shape.from.describe('First day (UTC), inclusive. Default: six days before `to`'),
  to: reportQuery.shape.to.describe('Last day (UTC), inclusive. Default: today'),
});

export const peopleListingQuery = z.strictObject({
  site_id: reportQuery.shape.site_id,
  from: reportQuery.shape.from.describe('First day (UTC), inclusive. Default: 29 days before `to`'),
  to: reportQuery.shape.to.describe(
    `Last day (UTC), inclusive. Default: today. The window spans at most ${PEOPLE_WINDOW.maxDays} days`,
  ),
  filters: z
    .string()
    .max(20_000)
    .optional()
    .describe(
      'The JSON text of a filter list, as `filters` of POST /v1/stats/query takes it ' +
        '(`[["is","visit:channel",["ai"]],["is","visit:country",["DE","FR"]]]`). A person is listed when at ' +
        'least one of their visits in the window matches',
    ),
  sort: z
    .enum(PEOPLE_SORTS)
    .optional()
    .describe(
      'Largest first: `last_seen` (default), `visits` (`session_count`), `revenue` (`revenue.total_cents`). ' +
        'Ties keep one fixed order of people',
    ),
  limit: queryInteger(1, MAX_PAGE_SIZE).optional().describe(`1 to ${MAX_PAGE_SIZE}, default 50`),
  before: z
    .string()
    .max(400)
    .optional()
    .describe(
      'Pass `next_before` of the previous page to read the next one, with the same `site_id` and `sort`; ' +
        'anything else is a 422',
    ),
});

/** Every field is a string, empty when unknown or none. */
const entrySchema = z.object({
  ai_source: z
    .string()
    .describe(
      'The assistant (`chatgpt`, `perplexity`, …) for an AI source, else the channel: `search`, `social`, `email`, `referral`, `paid` or `direct`',
    ),
  source_kind: z.string().describe('`ai`, `non_ai`, or `unknown` for a direct arrival'),
  source_name: z
    .string()
    .describe(
      'The referring host (lower-case, no `www.`), else the `utm_source`; empty for a direct arrival',
    ),
  campaign: z.string().describe('The `utm_campaign` parameter of the entry page'),
  ref: z
    .string()
    .describe(
      'The `?ref=` parameter of the entry page (`https://example.com/?ref=newsletter` gives `newsletter`), up to 200 characters; not the referrer, which is in `source_name`',
    ),
  url: z.string().describe('The entry page (email addresses and phone numbers in its query string redacted)'),
});
const deviceSchema = z.object({
  device_type: z
    .string()
    .describe('`desktop`, `mobile`, `tablet`, …: from the user agent, else the screen width'),
  os: z.string().describe('Operating system name, from the user agent'),
  browser: z.string().describe('Browser name, from the user agent'),
});
const locationSchema = z.object({
  country_code: z.string().describe('ISO 3166-1 alpha-2 code, from the address; empty when unknown'),
  city: z.string().describe('City name, from the address; empty when unknown'),
});

const rowFields = {
  handle: z.string().describe('Opaque `vh_` handle; pass it to GET /v1/visitors/{handle}'),
  label: z
    .object({
      name: z.string().describe('A generated display name such as "Amber Otter", stable per person'),
      initials: z.string().describe('The initials of `name`'),
      short_id: z.string().describe('6 characters that tell two people of the same `name` apart'),
    })
    .describe('A generated label: the person is never named'),
  first_seen: z.string().describe('When the person was first seen (ISO 8601), possibly before the window'),
  last_seen: z.string().describe('When the person was last seen (ISO 8601)'),
  session_count: z.number().int().describe('Visits overlapping the window, not limited to the goal'),
  pageviews: z.number().int().describe('Pageviews of those visits'),
  active_time_sec: z.number().int().describe('Engaged seconds (page visible and focused) of those visits'),
  is_new: z.boolean().describe("The person's first sighting falls inside the window"),
  entry: entrySchema.describe("Source of the person's first visit in the window"),
  device: deviceSchema.describe('Of the latest visit in the window'),
  location: locationSchema.describe('Of the latest visit in the window'),
  revenue: z
    .object({
      total_cents: z.number().int().describe('Minor units of `currency`'),
      currency: z.string().describe("The site's currency (ISO 4217)"),
      conversion_count: z.number().int().describe('Conversion events of the person in the window'),
      unconverted: z
        .array(
          z.object({
            currency: z.string().describe('ISO 4217 code of the values set aside'),
            total_cents: z.number().int().describe('Their sum, minor units of that currency'),
          }),
        )
        .describe('Values in currencies with no exchange rate on record for their day or any day before'),
    })
    .describe(
      "Conversion events of the person in the window. `total_cents` sums their values in the site's " +
        'currency; other currencies are converted at the ECB rate of their day (or the latest earlier ' +
        'one), as the revenue report does; a value whose currency has no rate on record is left out of ' +
        'the sum and listed under `unconverted` (its event still counts)',
    ),
  client_revenue: z.null().describe('Always null'),
  latest_session_id: z.uuid().describe('Id of the latest visit in the window'),
};

export const visitorRowSchema = z.object(rowFields);

const identityMergeComplete = z
  .boolean()
  .describe('False when a person had more visitor ids than are read: their figures are then lower bounds');

export const goalVisitorsSchema = z
  .object({
    visitors: z.array(visitorRowSchema).describe('The people who completed the goal in the window'),
    goal_name: z.string().describe('The goal, as asked'),
    from: z.string().describe('First day of the window (UTC), inclusive'),
    to: z.string().describe('Last day of the window (UTC), inclusive'),
    page: z.number().int().describe('As asked, default 1'),
    page_size: z.number().int().describe('As asked, default 50'),
    has_more: z.boolean().describe('Whether a later page has more people'),
    total_count: z.number().int().describe('People, not completions'),
    identity_merge_complete: identityMergeComplete,
  })
  .meta({ description: 'One page of the people who completed the goal', examples: [goalVisitorsExample] });

export const visitorProfileSchema = z
  .object({
    ...rowFields,
    first_seen: z.string().nullable().describe('When the person was first seen (ISO 8601); null if never'),
    last_seen: z.string().nullable().describe('When the person was last seen (ISO 8601); null if never'),
    latest_session_id: z.uuid().nullable().describe('Null when the person has no visit in the window'),
    from: z.string().describe('First day of the window (UTC), inclusive'),
    to: z.string().describe('Last day of the window (UTC), inclusive'),
    identity_merge_complete: identityMergeComplete,
    visits: z
      .array(
        z.object({
          id: z.uuid().describe('The visit id'),
          started_at: z.string().describe('ISO 8601'),
          last_activity_at: z.string().describe('ISO 8601'),
          pageviews: z.number().int().describe('Pageviews in the visit'),
          active_time_sec: z.number().int().describe('Engaged seconds (page visible and focused)'),
          entry: entrySchema.describe('Where the visit came from, and its first page'),
          device: deviceSchema.describe('The device of the visit'),
          location: locationSchema.describe('Where the visit came from'),
        }),
      )
      .describe('Visits in the window, newest first, at most 100'),
    conversions: z
      .array(
        z.object({
          event_id: z.string().describe('The event id'),
          name: z.string().describe('The goal'),
          occurred_at: z.string().describe('ISO 8601'),
          value_cents: z.number().int().nullable().describe('Minor units of `currency`'),
          currency: z
            .string()
            .nullable()
            .describe('ISO 4217 code of `value_cents`; null when the event had no value'),
          display_value: z
            .number()
            .nullable()
            .describe(
              "The value in the site's currency (`revenue.currency`), major units, at the ECB rate of its " +
                'day or the latest earlier one; null when no value or no rate',
            ),
          rate_day: z
            .string()
            .nullable()
            .describe(
              'Day (YYYY-MM-DD) of the ECB rate that converted the value; null when it is in the site’s ' +
                'currency or was not converted',
            ),
        }),
      )
      .describe('Conversion events in the window, newest first, at most 100'),
    refunds: z
      .array(
        z.object({
          event_id: z.string().describe('The payment’s conversion event, one of `conversions`'),
          refunded_at: z.string().describe('ISO 8601'),
          amount_cents: z.number().int().describe('Minor units of `currency`'),
          currency: z.string().describe('ISO 4217 code the payment was charged in'),
        }),
      )
      .describe('Refunds of the payments among `conversions`, oldest first'),
  })
  .meta({
    description: 'The person: the row fields, their visits and their conversions in the window',
    examples: [visitorProfileExample],
  });

export const peopleListingSchema = z
  .object({
    visitors: z
      .array(visitorRowSchema)
      .describe('People with a matching visit in the window, identities merged, in `sort` order'),
    from: z.string().describe('First day of the window (UTC), inclusive'),
    to: z.string().describe('Last day of the window (UTC), inclusive'),
    next_before: z
      .string()
      .nullable()
      .describe('The `before` of the next page; null on the last page (or when this one was not full)'),
    identity_merge_complete: identityMergeComplete,
  })
  .meta({
    description: 'One page of people, in `sort` order',
    examples: [peopleListingExample],
  });
