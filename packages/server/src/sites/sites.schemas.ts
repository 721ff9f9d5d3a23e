/**
 * Request and response schemas of the sites routes (interface §2.4a, §4.2). They check shape;
 * hostname, cookie apex and currency rules live in the service, which every caller shares.
 */
import { z } from 'zod';
import { ATTRIBUTION_MODELS } from '../attribution/models.js';
import { SITE_REF_PATTERN } from '../lib/ids.js';
import {
  MAX_EVENTS_RETENTION_DAYS,
  MAX_VISITS_RETENTION_DAYS,
  MIN_RETENTION_DAYS,
} from '../retention/retention-limits.js';
import {
  CREATE_SITE_EXAMPLE,
  CREATED_SITE_EXAMPLE,
  DASHBOARD_SITES_EXAMPLE,
  DELETE_SITE_EXAMPLE,
  DELETION_EXAMPLE,
  RESTORED_EXAMPLE,
  SITE_LIST_EXAMPLE,
  SNIPPET_KEY_EXAMPLE,
  UPDATE_SITE_EXAMPLE,
} from './sites.examples.js';

const MAX_SITE_NAME_CHARS = 60;
const MAX_HOSTNAME_INPUT = 253;
export const siteParams = z.strictObject({
  siteId: z
    .string()
    .regex(SITE_REF_PATTERN, 'must be a ttid_ snippet key (or, for a dashboard session, a site UUID)')
    .meta({
      description: 'Snippet key; a dashboard session may also pass the internal site UUID',
      examples: [SNIPPET_KEY_EXAMPLE],
    }),
});

/** Up to 60 characters (code points, so an emoji counts once); trimmed; "" means no name. */
const siteNameSchema = z
  .string()
  .trim()
  .refine((value) => [...value].length <= MAX_SITE_NAME_CHARS, {
    error: `must be at most ${MAX_SITE_NAME_CHARS} characters`,
  })
  .refine((value) => !/\p{Cc}/u.test(value), { error: 'must not contain control characters' })
  .nullable();

/** Whole days from 30 to `max` (interface §8's maximums); null keeps the default. */
const retentionDays = (max: number) =>
  z
    .number({ error: 'must be a whole number of days or null' })
    .int('must be a whole number of days')
    .min(MIN_RETENTION_DAYS, `must be between ${MIN_RETENTION_DAYS} and ${max} days`)
    .max(max, `must be between ${MIN_RETENTION_DAYS} and ${max} days`)
    .nullable();

const hostnameInput = z.string().min(1, 'must not be empty').max(MAX_HOSTNAME_INPUT);

/** Shape only; whether the code is supported is the service's rule (the same for create and update). */
const currencyInput = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code')
  .describe(
    'A supported ISO 4217 code, any case, stored upper-case; setting it records that it was chosen by hand',
  );

export const listQuery = z.strictObject({
  include_deleted: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .optional()
    .describe('"true" adds sites inside their deletion window'),
});

export const createSiteBody = z
  .strictObject({
    domain: hostnameInput.describe(
      'Hostname only: no scheme, path or port. Stored lower-cased, IDN as punycode',
    ),
    name: siteNameSchema.optional(),
    region: z.enum(['us', 'eu']).optional().describe("Default: the account's region"),
    currency: currencyInput
      .optional()
      .describe(
        'Reporting currency; default USD. Given here, it counts as chosen by hand: a payment-processor connection never overrides it',
      ),
  })
  .meta({ examples: [CREATE_SITE_EXAMPLE] });

export const updateSiteBody = z
  .strictObject({
    name: siteNameSchema.optional().describe('null or "" clears'),
    attribution_model: z.enum(ATTRIBUTION_MODELS).optional(),
    cookie_apex_domain: z
      .string()
      .max(MAX_HOSTNAME_INPUT)
      .nullable()
      .optional()
      .describe('The domain or a registrable parent of it; null or "" clears to host-only cookies'),
    currency: currencyInput.optional(),
    events_retention_days: retentionDays(MAX_EVENTS_RETENTION_DAYS)
      .optional()
      .describe(
        'Raw events of every type are deleted this many days after they happened and were received; null: the default (conversion records 365 days). Daily totals stay',
      ),
    visits_retention_days: retentionDays(MAX_VISITS_RETENTION_DAYS)
      .optional()
      .describe(
        'Visits are deleted this many days after they ended, then visitors last seen before; null: kept. Daily totals stay',
      ),
  })
  .refine((body) => Object.keys(body).length > 0, {
    error:
      'send at least one of name, attribution_model, cookie_apex_domain, currency, events_retention_days, visits_retention_days',
  })
  .meta({ examples: [UPDATE_SITE_EXAMPLE] });

/** Nullable so that a DELETE without any body answers 422 naming `confirm_domain` (the route checks). */
export const deleteSiteBody = z
  .strictObject({ confirm_domain: z.string().min(1, 'must not be empty').max(MAX_HOSTNAME_INPUT) })
  .nullish()
  .meta({ examples: [DELETE_SITE_EXAMPLE] });

/** Restore takes no input; a body, if sent, must be empty. */
export const restoreSiteBody = z
  .strictObject({})
  .nullish()
  .meta({ examples: [{}] });

export const siteSchema = z.object({
  id: z.string().describe('Snippet key'),
  name: z.string().nullable(),
  domain: z.string(),
  snippet_key: z.string(),
  region: z.enum(['us', 'eu']),
  attribution_model: z.enum(ATTRIBUTION_MODELS),
  cookie_apex_domain: z.string().nullable(),
  suggested_cookie_apex_domain: z.string().nullable(),
  currency: z.string(),
  created_at: z.string(),
  verified_at: z.string().nullable(),
  deleted_at: z.string().nullable(),
  deletion_effective_at: z.string().nullable(),
  events_retention_days: z
    .number()
    .int()
    .nullable()
    .describe('Days raw events are kept; null: the default (conversion records 365 days)'),
  visits_retention_days: z.number().int().nullable().describe('Days visits are kept; null: kept'),
});

export const siteListSchema = z
  .object({ sites: z.array(siteSchema) })
  .meta({ description: 'The sites, newest first', examples: [SITE_LIST_EXAMPLE] });

export const createdSiteSchema = z
  .object({
    site_id: z.string().describe('Snippet key'),
    snippet_key: z.string(),
    domain: z.string(),
    name: z.string().nullable(),
    region: z.enum(['us', 'eu']),
    cookie_apex_domain: z.null(),
    suggested_cookie_apex_domain: z.string().nullable(),
    api_key: z.string().describe('Shown once: stats:read and ingest:write, restricted to this site'),
    created_at: z.string(),
  })
  .meta({
    description: 'The new site, with its own API key (shown only here)',
    examples: [CREATED_SITE_EXAMPLE],
  });

export const deletionSchema = z
  .object({
    status: z.literal('deletion_scheduled'),
    site_id: z.string(),
    domain: z.string(),
    requested_at: z.string(),
    effective_at: z.string(),
    window_days: z.number().int(),
  })
  .meta({
    description: 'Deletion is scheduled; erasure runs at `effective_at`',
    examples: [DELETION_EXAMPLE],
  });

export const restoredSchema = z
  .object({
    status: z.literal('active'),
    site_id: z.string(),
    domain: z.string(),
  })
  .meta({ description: 'The site is active (again)', examples: [RESTORED_EXAMPLE] });

export const dashboardSitesSchema = z
  .object({
    sites: z.array(
      z.object({
        uuid: z.uuid(),
        snippet_key: z.string(),
        domain: z.string(),
        name: z.string().nullable(),
        deleted_at: z.string().nullable(),
      }),
    ),
  })
  .meta({
    description: 'Every site of the account, scheduled ones included, with internal UUIDs',
    examples: [DASHBOARD_SITES_EXAMPLE],
  });
