/** AI crawlers and AI visibility: `crawler_report` (GET /v1/crawlers), `ai_visibility`. */
import { unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, majorUnits, minorUnits, READS, type ToolSet } from '../tool-kit.js';
import { attributionModel, day, type QueryOf, queryFlag, siteId, timezone } from './inputs.js';

export function addAiTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('crawler_report', {
    title: 'AI crawler report',
    description:
      'AI crawlers on the site (GPTBot, ClaudeBot, PerplexityBot, …): hits per crawler and day (verified ' +
      'against published address ranges, spoofed ones apart), purposes (training, search, user), most ' +
      'fetched paths, and per operator the loop from pages crawled to assistant visits, conversions and net ' +
      'revenue.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      from: day.optional().describe('First UTC day, inclusive; default 6 days before `to`'),
      to: day.optional().describe('Last UTC day, inclusive; default today. At most 365 days'),
      attribution_model: attributionModel.describe(
        'How conversions and revenue are credited; default last_touch',
      ),
    },
    run: async ({ site_id, from, to, attribution_model }) => {
      const report = await unwrap(
        client.GET('/v1/crawlers', {
          params: {
            query: { site_id, from, to, attribution_model } satisfies QueryOf<'/v1/crawlers', 'get'>,
          },
        }),
      );
      return answer(report, {
        hits: 'requests by the crawler',
        'gross, refunded, net': majorUnits(report.currency),
        conversions: 'credited conversions, fractional under linear and time_decay',
      });
    },
  });

  tools.add('ai_visibility', {
    title: 'AI visibility per page',
    description:
      'Per page: AI crawler hits by operator, visits sent by AI assistants, and the conversions and net ' +
      'revenue those visits earned; `not_visited` finds pages AI crawlers read that no assistant sent anyone ' +
      'to. Ordered by AI visits plus crawler hits.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      from: day.optional().describe('First day, inclusive; default 29 days before `to`'),
      to: day.optional().describe('Last day, inclusive; default today'),
      timezone,
      attribution_model: attributionModel,
      not_visited: z.boolean().optional().describe('Only pages crawled but never visited from an assistant'),
      limit: z.number().int().min(1).max(1000).optional().describe('Pages per answer; default 100'),
      offset: z.number().int().min(0).optional().describe('Pages to skip; default 0'),
    },
    run: async (input) => {
      const visibility = await unwrap(
        client.GET('/v1/ai-visibility', {
          params: {
            query: {
              site_id: input.site_id,
              from: input.from,
              to: input.to,
              timezone: input.timezone,
              attribution_model: input.attribution_model,
              not_visited: queryFlag(input.not_visited),
              limit: input.limit,
              offset: input.offset,
            } satisfies QueryOf<'/v1/ai-visibility', 'get'>,
          },
        }),
      );
      return answer(visibility, {
        revenue_net_cents: minorUnits(visibility.meta.currency),
        conversions: 'credited conversions, fractional under linear and time_decay',
      });
    },
  });
}
