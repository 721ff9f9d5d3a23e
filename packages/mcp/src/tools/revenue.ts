/** `revenue_by_source`: attributed revenue per credited source (GET /v1/revenue). */
import { unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, majorUnits, READS, type ToolSet } from '../tool-kit.js';
import { attributionModel, day, type QueryOf, siteId } from './inputs.js';

export function addRevenueTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('revenue_by_source', {
    title: 'Revenue by source',
    description:
      'Payments credited to the sources that brought the buyer (AI assistants such as chatgpt, search, ' +
      'direct, …; "" when no visit matched) under an attribution model: gross, refunded and net revenue in ' +
      'the site currency, and conversions (payments and trials). Refunds count on the day they were posted. ' +
      'Use it for "how much did ChatGPT earn us"; query_stats gives revenue_net by channel too.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      from: day.optional().describe('First UTC day, inclusive; default 29 days before `to`'),
      to: day.optional().describe('Last UTC day, inclusive; default today. At most 366 days'),
      attribution_model: attributionModel,
      by_day: z.boolean().optional().describe('Also answer each day with its sources; default false'),
    },
    run: async ({ site_id, from, to, attribution_model, by_day }) => {
      const revenue = await unwrap(
        client.GET('/v1/revenue', {
          params: { query: { site_id, from, to, attribution_model } satisfies QueryOf<'/v1/revenue', 'get'> },
        }),
      );
      const { days, ...summary } = revenue;
      return answer(by_day ? revenue : summary, {
        'gross, refunded, net': majorUnits(revenue.currency),
        conversions: 'payments and trials, gross of refunds; fractional under linear and time_decay',
        unconverted: 'amounts in their own currency, major units, left out for want of an exchange rate',
        ...(by_day ? {} : { days: `left out (${days.length} days); ask with by_day: true` }),
      });
    },
  });
}
