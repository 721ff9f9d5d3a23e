/** Schemas of the privacy request routes (DESIGN.md §12). */
import { z } from 'zod';
import { queryInteger, timestampSchema, uuidParam } from '../http/schemas.js';
import { SITE_REF_PATTERN } from '../lib/ids.js';
import {
  accessExportExample,
  completedAccessExample,
  createRequestExample,
  pendingRequestExample,
  REQUEST_ID_EXAMPLE,
  requestListExample,
} from './privacy.examples.js';
import { SUBJECT_KINDS } from './subject.js';

/** Long enough for any id a site stores (visitor ids 64, user ids 256, emails 254, handles 83). */
const MAX_SUBJECT_CHARS = 320;
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 50;

const siteRef = z
  .string({ error: 'must be a string' })
  .regex(SITE_REF_PATTERN, 'must be the site’s UUID or its ttid_ snippet key')
  .meta({
    description: 'The site’s internal UUID (interface §2.1), or its snippet key',
    examples: ['3f6c1a52-8d4e-4b7a-9c21-5e8f0d2b7a64'],
  });

export const createRequestBody = z
  .strictObject({
    site_id: siteRef,
    type: z.enum(['access', 'erasure'], { error: 'must be access or erasure' }),
    subject: z.strictObject(
      {
        kind: z.enum(SUBJECT_KINDS, { error: `must be one of ${SUBJECT_KINDS.join(', ')}` }),
        value: z
          .string({ error: 'must be a string' })
          .trim()
          .min(1, 'must not be empty')
          .max(MAX_SUBJECT_CHARS, `must be at most ${MAX_SUBJECT_CHARS} characters`)
          .describe('Used once to find the person; kept only as a keyed hash'),
      },
      { error: 'must be an object with kind and value' },
    ),
  })
  .meta({ examples: [createRequestExample] });

export const requestParams = z.strictObject({
  id: uuidParam.meta({ description: 'The request’s id', examples: [REQUEST_ID_EXAMPLE] }),
});

export const listQuery = z.strictObject({
  site_id: siteRef.optional().describe('Only this site’s requests'),
  limit: queryInteger(1, MAX_PAGE).optional().describe(`Default ${DEFAULT_PAGE}`),
  cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page'),
});

const countsSchema = z
  .object({
    visitors: z.number().int(),
    visits: z.number().int(),
    events: z.number().int(),
    identity_links: z.number().int(),
    payments: z.number().int(),
    refunds: z.number().int(),
  })
  .describe('What was found about the person when the request was made');

export const requestSchema = z
  .object({
    id: z.string(),
    site_id: z.string().describe('The site’s snippet key'),
    type: z.enum(['access', 'erasure']),
    status: z.enum(['pending', 'running', 'completed', 'failed']),
    subject: z
      .object({ kind: z.enum(SUBJECT_KINDS) })
      .describe('The kind of id asked about; never its value'),
    matched: countsSchema,
    requested_by: z.object({
      user_id: z.string().nullable().describe('The person who asked, or who created the key that asked'),
      key_id: z.string().nullable().describe('The key that asked, when a key did'),
    }),
    created_at: timestampSchema,
    completed_at: timestampSchema.nullable(),
    export_url: z
      .string()
      .nullable()
      .describe('Access requests: where to download the export, while it lasts'),
    export_expires_at: timestampSchema.nullable(),
    error: z
      .string()
      .nullable()
      .describe('Why the last attempt failed, while the request is retried or failed'),
  })
  .meta({ examples: [pendingRequestExample, completedAccessExample] });

export const requestListSchema = z
  .object({
    requests: z.array(requestSchema),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
  })
  .meta({ examples: [requestListExample] });

export const accessExportSchema = z
  .unknown()
  .describe('The export document')
  .meta({ examples: [accessExportExample] });

export type CreateRequestBody = z.infer<typeof createRequestBody>;
export type ListQuery = z.infer<typeof listQuery>;
