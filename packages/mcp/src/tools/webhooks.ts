/** `test_webhook`: one signed `webhook.ping` to an endpoint, answered with what came back. */
import { unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, type ToolSet } from '../tool-kit.js';
import { type BodyOf, siteId } from './inputs.js';

export function addWebhookTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('test_webhook', {
    title: 'Test a webhook endpoint',
    description:
      'Send one signed webhook.ping to an endpoint (ids from get_site) and report the answer: whether it ' +
      'was 2xx, the HTTP status (0 when none arrived), latency, the first 1 KB of the answer and the ' +
      'verification status. At most 5 a minute per endpoint.',
    scope: 'config:write',
    // Sends a real request to the endpoint's URL on the internet and logs a delivery each time.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: { site_id: siteId, webhook_id: z.uuid().describe('The endpoint’s id, from get_site') },
    run: async ({ site_id, webhook_id }) => {
      const result = await unwrap(
        client.POST('/v1/sites/{siteId}/webhooks/{webhookId}/test', {
          params: { path: { siteId: site_id, webhookId: webhook_id } },
          body: {} satisfies BodyOf<'/v1/sites/{siteId}/webhooks/{webhookId}/test', 'post'>,
        }),
      );
      return answer(result, { latency_ms: 'milliseconds' });
    },
  });
}
