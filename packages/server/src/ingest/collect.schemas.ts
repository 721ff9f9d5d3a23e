/** Request bodies of the collect endpoint (the tracker's wire format) and of server events. */
import { z } from 'zod';
import { GOAL_NAME_MAX, goalNameProblem } from '../goals/goal-names.js';
import { timestampSchema } from '../http/schemas.js';
import { SNIPPET_KEY_PATTERN } from '../lib/ids.js';
import { isIsoCurrency } from '../lib/money.js';

const MAX_AMOUNT = 1_000_000_000_000;

export const eventNameSchema = z
  .string()
  .max(GOAL_NAME_MAX)
  .superRefine((name, ctx) => {
    const problem = goalNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: `event name ${problem}` });
  });

export const propertiesSchema = z
  .record(z.string().min(1).max(200), z.union([z.string().max(4096), z.number(), z.boolean(), z.null()]))
  .refine((value) => Object.keys(value).length <= 100, 'at most 100 properties');

export const currencySchema = z
  .string()
  .transform((code) => code.toUpperCase())
  .refine(isIsoCurrency, 'must be a three-letter ISO 4217 currency code');

export const amountSchema = z.number().min(0).max(MAX_AMOUNT);
const opaqueId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 characters of A-Z, a-z, 0-9, _ and -');
const pageUrl = z
  .string()
  .max(4096)
  .regex(/^https?:\/\//i, 'must be an http(s) URL');
const snippetKey = z.string().regex(SNIPPET_KEY_PATTERN, 'must be a ttid_ snippet key');

const common = {
  site: snippetKey,
  vid: opaqueId.describe('Visitor id from the visitor cookie'),
  eid: opaqueId.describe('Event id; a retried request with the same id counts once'),
  url: pageUrl,
  sw: z.number().int().min(0).max(100_000).optional().describe('Screen width in CSS pixels'),
};

export const collectPayloadSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('pageview'), ...common, ref: z.string().max(4096).optional() }),
  z.strictObject({
    type: z.literal('event'),
    ...common,
    name: eventNameSchema,
    props: propertiesSchema.optional(),
    value: amountSchema.optional(),
    currency: currencySchema.optional(),
  }),
  z.strictObject({ type: z.literal('identify'), ...common, uid: z.string().trim().min(1).max(256) }),
  z.strictObject({
    type: z.literal('engagement'),
    ...common,
    engaged_ms: z.number().int().min(0).max(86_400_000),
  }),
]);

export type CollectPayload = z.infer<typeof collectPayloadSchema>;

export const serverEventSchema = z.strictObject({
  site_id: snippetKey,
  name: eventNameSchema,
  visitor_id: opaqueId.optional(),
  user_id: z
    .string()
    .trim()
    .min(1)
    .max(256)
    .optional()
    .describe('Your id of the signed-in person; with `visitor_id`, links that visitor to the person'),
  email: z
    .email()
    .max(254)
    .optional()
    .describe(
      'Only an HMAC of it is stored. Names the person when `user_id` is absent; with `visitor_id`, it also links the visitor, so a payment that carries only this email finds their visits',
    ),
  properties: propertiesSchema.optional(),
  value: amountSchema.optional(),
  currency: currencySchema.optional(),
  event_id: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1 to 128 characters of A-Z, a-z, 0-9 and . _ : -')
    .optional(),
  timestamp: timestampSchema.optional(),
});

export type ServerEvent = z.infer<typeof serverEventSchema>;
