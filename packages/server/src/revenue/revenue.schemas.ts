/** Query and response of `GET /v1/revenue`; the descriptions are the report's documentation. */
import { z } from 'zod';
import { ATTRIBUTION_MODELS } from '../attribution/models.js';
import { codedErrorSchema, siteRefSchema } from '../http/schemas.js';
import { daySchema } from '../lib/day-window.js';
import { revenueReportExample } from './revenue.examples.js';
import { REVENUE_DEFAULT_DAYS, REVENUE_MAX_DAYS } from './revenue.service.js';

export const revenueQuery = z.strictObject({
  site_id: siteRefSchema,
  from: daySchema
    .optional()
    .describe(
      `First day, YYYY-MM-DD (UTC), inclusive; default ${REVENUE_DEFAULT_DAYS - 1} days before \`to\`; at most ${REVENUE_MAX_DAYS} days in all`,
    ),
  to: daySchema.optional().describe('Last day, YYYY-MM-DD (UTC), inclusive; default today'),
  attribution_model: z
    .enum(ATTRIBUTION_MODELS)
    .optional()
    .describe('Whose credits to sum; default the site’s `attribution_model` setting'),
});

const figures = {
  gross: z.number().describe('Payments in the site currency, major units (renewals included; trials are 0)'),
  refunded: z
    .number()
    .describe('Refunds dated in the period, major units, credited back to the source of the payment'),
  net: z.number().describe('`gross` − `refunded`; negative when refunds outweigh payments'),
  conversions: z
    .number()
    .describe(
      'Payments and trials credited, counted gross (refunds do not lower it); each counts once, for the source with the largest share of it (the money is split by share under linear and time_decay)',
    ),
  trials: z.number().describe('Of `conversions`, the free trials'),
};

const unconvertedMoney = z.object({
  currency: z.string().describe('ISO 4217 code of the money set aside'),
  gross: z.number().describe('Payments in `currency`, major units'),
  refunded: z.number().describe('Refunds in `currency`, major units'),
  net: z.number().describe('`gross` − `refunded`'),
});

const rowUnconverted = z
  .array(unconvertedMoney)
  .describe(
    'This row’s money in other currencies with no exchange rate on record for its day or any day before, ' +
      'per currency and in that currency: left out of the row’s amounts (its counts are in them); empty when ' +
      'everything converted',
  );

const sourceFigures = z.object({
  source: z
    .string()
    .describe(
      'Credited source: the visit’s source label (assistant name, `search`, `direct`, …); `direct` too when no visit matched',
    ),
  ...figures,
  unconverted: rowUnconverted,
});

export const revenueReportSchema = z
  .object({
    site_id: z.string().describe('The site’s snippet key'),
    from: z.string(),
    to: z.string(),
    attribution_model: z.enum(ATTRIBUTION_MODELS),
    currency: z
      .string()
      .describe('The site’s currency: every amount except those under `unconverted` is in it'),
    totals: z.object(figures).describe('The whole window'),
    sources: z.array(sourceFigures).describe('The whole window per credited source, largest net first'),
    days: z
      .array(
        z.object({
          date: z.string(),
          ...figures,
          unconverted: rowUnconverted,
          sources: z.array(sourceFigures),
        }),
      )
      .describe('Days with any payment or refund, oldest first, each with its per-source breakdown'),
    unconverted: z
      .array(unconvertedMoney)
      .describe(
        'Money in another currency with no exchange rate on record for its day or any day before: ' +
          'left out of the amounts above (its counts are in them) and reported here in its own currency. ' +
          'The whole window’s; each source and day row lists its own share under its `unconverted`',
      ),
  })
  .describe(
    'Attributed revenue per day and per credited source. Amounts are major units of `currency`, rounded to its ' +
      'minor unit; totals are summed before rounding. Other currencies are converted through the euro at the ECB ' +
      'reference rate of the day (or the most recent earlier one). Refunds count on the day they were posted, ' +
      'so past days never change and a day may be negative.',
  )
  .meta({ examples: [revenueReportExample] });

export const revenueErrorSchemas = {
  401: codedErrorSchema,
  403: codedErrorSchema,
  404: codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach'),
  422: codedErrorSchema,
  429: codedErrorSchema,
};
