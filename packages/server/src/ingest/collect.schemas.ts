/** Request bodies of the collect endpoint (the tracker's wire format) and of server events. */
import { z } from 'zod';
import { GOAL_NAME_MAX, goalNameProblem } from '../goals/goal-names.js';
import { timestampSchema } from '../http/schemas.js';
import { SNIPPET_KEY_PATTERN } from '../lib/ids.js';
import { isIsoCurrency } from '../lib/money.js';
import { collectExamples, serverEventExamples } from './ingest.examples.js';

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

/** What a custom event carries, from the tracker (`props`) or a server (`properties`) alike. */
const eventFields = {
  properties: propertiesSchema
    .optional()
    .describe(
      'Properties: at most 100 keys; values are strings, numbers, booleans or null. email addresses and phone numbers in string values are stored as `[REDACTED]`',
    ),
  value: amountSchema.optional().describe('The conversion value, in major units of `currency`'),
  currency: currencySchema
    .optional()
    .describe("ISO 4217 code of `value` (case-insensitive); default: the site's currency"),
};

const common = {
  site: snippetKey.describe("The site's `ttid_` snippet key (the script tag's `data-site`)"),
  vid: opaqueId.describe('Visitor id from the visitor cookie'),
  eid: opaqueId.describe('Event id; a retried request with the same id counts once'),
  url: pageUrl.describe(
    'The page (`location.href`), query string included: the campaign (`utm_*`) and `?ref=` parameters are read from it. ' +
      'Email addresses and phone numbers in its query string are stored as `[REDACTED]`',
  ),
  sw: z.number().int().min(0).max(100_000).optional().describe('Screen width in CSS pixels'),
};

/** The `type` of a payload: a literal, described for the OpenAPI document. */
const typeOf = <T extends string>(type: T, description: string) => z.literal(type).describe(description);

export const collectPayloadSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: typeOf(
        'pageview',
        'A page was shown: on load, and on each in-app navigation that changes the path or query',
      ),
      ...common,
      ref: z
        .string()
        .max(4096)
        .optional()
        .describe(
          'The referrer: `document.referrer` on the first pageview, the previous in-app URL after that; empty or absent when none. ' +
            'It decides the source of a visit. Not the `?ref=` parameter, which is read from `url`',
        ),
    }),
    z.strictObject({
      type: typeOf('event', 'A custom event (`touchtrail.track`); its name is a goal'),
      ...common,
      name: eventNameSchema.describe('The event (goal) name; a new name registers a goal'),
      props: eventFields.properties,
      value: eventFields.value,
      currency: eventFields.currency,
    }),
    z.strictObject({
      type: typeOf('identify', 'Links this visitor to a person (`touchtrail.identify`)'),
      ...common,
      uid: z
        .string()
        .trim()
        .min(1)
        .max(256)
        .describe('Your id or the email of the person; only an HMAC of it is stored'),
    }),
    z.strictObject({
      type: typeOf('engagement', 'Engaged time on a page, sent when the page is hidden or left'),
      ...common,
      engaged_ms: z
        .number()
        .int()
        .min(0)
        .max(86_400_000)
        .describe('Milliseconds the page was visible and focused since the last report, at most one day'),
    }),
  ])
  // zod leaves `examples` out of the request side of a schema that transforms; @fastify/swagger
  // also reads named examples from `x-examples`, which zod keeps.
  .meta({ 'x-examples': collectExamples });

export type CollectPayload = z.infer<typeof collectPayloadSchema>;

export const serverEventSchema = z
  .strictObject({
    site_id: snippetKey.describe("The site's `ttid_` snippet key"),
    name: eventNameSchema.describe('The event (goal) name; a new name registers a goal'),
    visitor_id: opaqueId
      .optional()
      .describe('The visitor id from the visitor cookie (`touchtrail.getVisitorId()` in the browser)'),
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
    properties: eventFields.properties,
    value: eventFields.value,
    currency: eventFields.currency,
    event_id: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1 to 128 characters of A-Z, a-z, 0-9 and . _ : -')
      .optional()
      .describe('Your id of the event (an order id, say): a post with an id already held counts once'),
    timestamp: timestampSchema
      .optional()
      .describe('When it happened; default: when received. At most 24 hours ahead'),
  })
  // zod leaves `examples` out of the request side of a schema that transforms; @fastify/swagger
  // also reads named examples from `x-examples`, which zod keeps.
  .meta({ 'x-examples': serverEventExamples });

export type ServerEvent = z.infer<typeof serverEventSchema>;
