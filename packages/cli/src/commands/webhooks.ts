/** `touchtrail webhooks`: a site's outbound endpoints, their test ping, delivery log and secret. */
import { unwrap, WEBHOOK_EVENT_TYPES } from '@touchtrail/client';
import type { Command } from 'commander';
import { action, type Context } from '../context.js';
import { UsageError } from '../errors.js';
import { example, integerBetween, oneOf } from '../options.js';
import { formatNumber, formatTime, orDash } from '../output/format.js';
import { renderDetails, renderTable } from '../output/table.js';
import { nextPageHint } from './sessions.js';

type EventType = (typeof WEBHOOK_EVENT_TYPES)[number];
const parseEventType = oneOf(WEBHOOK_EVENT_TYPES);

interface WebhookView {
  id: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  verification_status: string;
  updated_at: string;
}

const webhookTable = (webhooks: WebhookView[]) =>
  renderTable(
    [
      { header: 'Id' },
      { header: 'URL' },
      { header: 'Events' },
      { header: 'Enabled' },
      { header: 'Status' },
      { header: 'Updated' },
    ],
    webhooks.map((w) => [
      w.id,
      w.url,
      w.event_types.join(', '),
      w.enabled ? 'yes' : 'no',
      w.verification_status,
      formatTime(w.updated_at),
    ]),
    'No webhooks: add one with touchtrail webhooks create --endpoint https://…',
  );

const paths = (ctx: Context, webhookId: string) => ({ path: { siteId: ctx.site(), webhookId } });

export function registerWebhooks(program: Command) {
  const webhooks = program.command('webhooks').description('Outbound webhook endpoints of a site');

  webhooks
    .command('list')
    .description('List the site’s webhooks (never their secrets)')
    .addHelpText('after', example('touchtrail webhooks list --site ttid_…'))
    .action(
      action(async (ctx) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/sites/{siteId}/webhooks', { params: { path: { siteId: ctx.site() } } }),
        );
        ctx.print(answer, () => webhookTable(answer.webhooks));
      }),
    );

  webhooks
    .command('create')
    .description('Add an endpoint (a ping is sent at once); prints its signing secret once')
    .requiredOption('--endpoint <https-url>', 'where deliveries are posted')
    .option(
      '--event <type>',
      `${WEBHOOK_EVENT_TYPES.join(', ')} (repeatable)`,
      (v: string, p: EventType[] = []) => [...p, parseEventType(v)],
    )
    .addHelpText(
      'after',
      example(
        'touchtrail webhooks create --site ttid_… --endpoint https://hooks.example.com/tt --event conversion.attributed',
      ),
    )
    .action(
      action<{ endpoint: string; event?: EventType[] }>(async (ctx, options) => {
        const created = await unwrap(
          ctx.client.POST('/v1/sites/{siteId}/webhooks', {
            params: { path: { siteId: ctx.site() } },
            body: { url: options.endpoint, ...(options.event ? { event_types: options.event } : {}) },
          }),
        );
        ctx.print(
          created,
          () =>
            `${webhookTable([created])}\n${renderDetails([['Secret', `${created.secret}  (shown once: store it to verify signatures)`]])}`,
        );
      }),
    );

  webhooks
    .command('update')
    .argument('<id>', 'webhook id')
    .description('Change an endpoint’s URL, events, or switch it on or off')
    .option('--endpoint <https-url>', 'new address')
    .option('--event <type>', 'replace the event types (repeatable)', (v: string, p: EventType[] = []) => [
      ...p,
      parseEventType(v),
    ])
    .option('--enable', 'switch deliveries on')
    .option('--disable', 'switch deliveries off')
    .addHelpText('after', example('touchtrail webhooks update 9d1c…-uuid --disable'))
    .action(
      action<{ endpoint?: string; event?: EventType[]; enable?: boolean; disable?: boolean }>(
        async (ctx, options, args) => {
          if (options.enable && options.disable)
            throw new UsageError('--enable and --disable cannot go together');
          const body = {
            ...(options.endpoint ? { url: options.endpoint } : {}),
            ...(options.event ? { event_types: options.event } : {}),
            ...(options.enable || options.disable ? { enabled: Boolean(options.enable) } : {}),
          };
          if (Object.keys(body).length === 0)
            throw new UsageError('nothing to change', 'Pass --endpoint, --event, --enable or --disable.');
          const updated = await unwrap(
            ctx.client.PATCH('/v1/sites/{siteId}/webhooks/{webhookId}', {
              params: paths(ctx, args[0] as string),
              body,
            }),
          );
          ctx.print(updated, () => webhookTable([updated]));
        },
      ),
    );

  webhooks
    .command('delete')
    .argument('<id>', 'webhook id')
    .description('Remove an endpoint and its delivery log (no undo)')
    .addHelpText('after', example('touchtrail webhooks delete 9d1c…-uuid --site ttid_…'))
    .action(
      action(async (ctx, _options, args) => {
        await unwrap(
          ctx.client.DELETE('/v1/sites/{siteId}/webhooks/{webhookId}', {
            params: paths(ctx, args[0] as string),
          }),
        );
        ctx.print(undefined, () => `Deleted webhook ${args[0]}.\n`);
      }),
    );

  webhooks
    .command('test')
    .argument('<id>', 'webhook id')
    .description('Send one signed ping and show how the endpoint answered')
    .addHelpText('after', example('touchtrail webhooks test 9d1c…-uuid --site ttid_…'))
    .action(
      action(async (ctx, _options, args) => {
        const answer = await unwrap(
          ctx.client.POST('/v1/sites/{siteId}/webhooks/{webhookId}/test', {
            params: paths(ctx, args[0] as string),
            body: {},
          }),
        );
        ctx.print(answer, () =>
          renderDetails([
            ['Result', answer.ok ? 'delivered' : 'failed'],
            ['Status', String(answer.status_code)],
            ['Latency', `${formatNumber(answer.latency_ms)} ms`],
            ['Answer', orDash(answer.response_snippet)],
            ['Verification', answer.verification_status],
          ]),
        );
      }),
    );

  webhooks
    .command('deliveries')
    .argument('<id>', 'webhook id')
    .description('The delivery log, newest first')
    .option(
      '--status <status>',
      'pending, retrying, succeeded or failed',
      oneOf(['pending', 'retrying', 'succeeded', 'failed'] as const),
    )
    .option('--limit <n>', 'deliveries per page, 1 to 100', integerBetween(1, 100))
    .option('--before <cursor>', 'the cursor printed under the previous page')
    .addHelpText('after', example('touchtrail webhooks deliveries 9d1c…-uuid --status failed'))
    .action(
      action<{ status?: 'pending' | 'retrying' | 'succeeded' | 'failed'; limit?: number; before?: string }>(
        async (ctx, options, args) => {
          const answer = await unwrap(
            ctx.client.GET('/v1/sites/{siteId}/webhooks/{webhookId}/deliveries', {
              params: { ...paths(ctx, args[0] as string), query: options },
            }),
          );
          ctx.print(
            answer,
            () =>
              renderTable(
                [
                  { header: 'Created' },
                  { header: 'Event' },
                  { header: 'Status' },
                  { header: 'Attempts', align: 'right' },
                  { header: 'HTTP', align: 'right' },
                  { header: 'Error' },
                ],
                answer.deliveries.map((d) => [
                  formatTime(d.created_at),
                  d.event_type,
                  d.status,
                  String(d.attempt_count),
                  d.response_status == null ? '—' : String(d.response_status),
                  orDash(d.last_error),
                ]),
                'No deliveries yet.',
              ) + nextPageHint(answer.next_before, `touchtrail webhooks deliveries ${args[0]}`),
          );
        },
      ),
    );

  webhooks
    .command('rotate')
    .argument('<id>', 'webhook id')
    .description('Replace the signing secret (the old one stops verifying at once)')
    .addHelpText('after', example('touchtrail webhooks rotate 9d1c…-uuid --site ttid_…'))
    .action(
      action(async (ctx, _options, args) => {
        const answer = await unwrap(
          ctx.client.POST('/v1/sites/{siteId}/webhooks/{webhookId}/rotate-secret', {
            params: paths(ctx, args[0] as string),
            body: {},
          }),
        );
        ctx.print(answer, () =>
          renderDetails([
            ['Webhook', answer.id],
            ['Secret', `${answer.secret}  (shown once)`],
          ]),
        );
      }),
    );
}
