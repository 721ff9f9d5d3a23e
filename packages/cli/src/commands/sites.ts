/** `touchtrail sites`: list, read, add, change, schedule deletion of, restore and export sites. */
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action, type Context } from '../context.js';
import { UsageError } from '../errors.js';
import { type AttributionModel, example, oneOf, parseDay, parseModel } from '../options.js';
import { downloadTo } from '../output/download.js';
import { formatTime, orDash } from '../output/format.js';
import { renderDetails, renderTable } from '../output/table.js';

interface SiteView {
  id: string;
  name: string | null;
  domain: string;
  region: string;
  attribution_model: string;
  cookie_apex_domain: string | null;
  suggested_cookie_apex_domain: string | null;
  currency: string;
  created_at: string;
  verified_at: string | null;
  deleted_at: string | null;
  deletion_effective_at: string | null;
}

function statusOf(site: SiteView): string {
  if (site.deleted_at) return `deletion on ${formatTime(site.deletion_effective_at).slice(0, 10)}`;
  return site.verified_at ? 'receiving' : 'awaiting first event';
}

export function renderSite(site: SiteView): string {
  return renderDetails([
    ['Site', site.id],
    ['Name', orDash(site.name)],
    ['Domain', site.domain],
    ['Region', site.region],
    ['Model', site.attribution_model],
    ['Currency', site.currency],
    [
      'Cookie domain',
      site.cookie_apex_domain ?? `host-only (suggested: ${orDash(site.suggested_cookie_apex_domain)})`,
    ],
    ['Created', formatTime(site.created_at)],
    ['First event', formatTime(site.verified_at)],
    ['Status', statusOf(site)],
  ]);
}

/** The site of a command: its argument, else `--site` / `TOUCHTRAIL_SITE` / the profile. */
const siteArgument = (ctx: Context, args: string[]) => args[0] ?? ctx.site();

const EXPORT_RECORDS = ['visits', 'events', 'payments'] as const;
const parseRecordKind = oneOf(EXPORT_RECORDS);
/** `visits,payments`: each kind checked before anything is sent. */
const parseRecords = (value: string) => value.split(',').map((kind) => parseRecordKind(kind.trim()));

interface ExportOptions {
  from?: string;
  to?: string;
  format?: 'ndjson' | 'csv';
  records?: string[];
  out?: string;
}

export function registerSites(program: Command) {
  const sites = program.command('sites').description('List and manage sites');

  sites
    .command('list')
    .description('List the sites the key reaches, newest first')
    .option('--include-deleted', 'also list sites inside their deletion window')
    .addHelpText('after', example('touchtrail sites list', 'touchtrail sites list --json'))
    .action(
      action<{ includeDeleted?: boolean }>(async (ctx, options) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/sites', {
            params: { query: options.includeDeleted ? { include_deleted: 'true' } : {} },
          }),
        );
        ctx.print(answer, () =>
          renderTable(
            [
              { header: 'Site' },
              { header: 'Name' },
              { header: 'Domain' },
              { header: 'Model' },
              { header: 'Currency' },
              { header: 'Status' },
            ],
            answer.sites.map((site) => [
              site.id,
              orDash(site.name),
              site.domain,
              site.attribution_model,
              site.currency,
              statusOf(site),
            ]),
            'No sites yet: add one with touchtrail sites create --domain example.com',
          ),
        );
      }),
    );

  sites
    .command('get')
    .argument('[site]', 'snippet key (default --site)')
    .description('Show one site')
    .addHelpText('after', example('touchtrail sites get ttid_4kQp2ZrT9xVbN7mWcLs3Ed'))
    .action(
      action(async (ctx, _options, args) => {
        const site = await unwrap(
          ctx.client.GET('/v1/sites/{siteId}', { params: { path: { siteId: siteArgument(ctx, args) } } }),
        );
        ctx.print(site, () => renderSite(site));
      }),
    );

  sites
    .command('create')
    .description('Add a site; prints its snippet key and a new API key (shown once)')
    .requiredOption('--domain <host>', 'hostname, without protocol or path')
    .option('--name <label>', 'display name (up to 60 characters)')
    .option('--region <region>', 'us or eu', oneOf(['us', 'eu'] as const))
    .addHelpText(
      'after',
      example('touchtrail sites create --domain shop.example.com --name "Shop" --region eu'),
    )
    .action(
      action<{ domain: string; name?: string; region?: 'us' | 'eu' }>(async (ctx, options) => {
        const created = await unwrap(
          ctx.client.POST('/v1/sites', {
            body: { domain: options.domain, name: options.name, region: options.region },
          }),
        );
        ctx.print(
          created,
          () =>
            `${renderDetails([
              ['Site', created.snippet_key],
              ['Domain', created.domain],
              ['Name', orDash(created.name)],
              ['Region', created.region],
              ['API key', `${created.api_key}  (stats:read, ingest:write; shown once, store it now)`],
            ])}\nInstall it with: touchtrail snippet --site ${created.snippet_key}\n`,
        );
      }),
    );

  sites
    .command('update')
    .argument('[site]', 'snippet key (default --site)')
    .description('Change a site’s name, attribution model, cookie domain or currency')
    .option('--name <label>', 'display name; "" clears it')
    .option('--model <model>', 'attribution model: first_touch, last_touch, linear, time_decay', parseModel)
    .option('--cookie-domain <domain>', 'cookie apex domain (the domain or a parent); "" for host-only')
    .option('--currency <code>', 'ISO 4217 reporting currency')
    .addHelpText('after', example('touchtrail sites update --site ttid_… --model linear --currency EUR'))
    .action(
      action<{ name?: string; model?: AttributionModel; cookieDomain?: string; currency?: string }>(
        async (ctx, options, args) => {
          const body = {
            ...(options.name !== undefined ? { name: options.name === '' ? null : options.name } : {}),
            ...(options.model ? { attribution_model: options.model } : {}),
            ...(options.cookieDomain !== undefined
              ? { cookie_apex_domain: options.cookieDomain === '' ? null : options.cookieDomain }
              : {}),
            ...(options.currency ? { currency: options.currency } : {}),
          };
          if (Object.keys(body).length === 0)
            throw new UsageError(
              'nothing to change',
              'Pass at least one of --name, --model, --cookie-domain, --currency.',
            );
          const site = await unwrap(
            ctx.client.PATCH('/v1/sites/{siteId}', {
              params: { path: { siteId: siteArgument(ctx, args) } },
              body,
            }),
          );
          ctx.print(site, () => renderSite(site));
        },
      ),
    );

  sites
    .command('delete')
    .argument('[site]', 'snippet key (default --site)')
    .description('Schedule a site’s deletion (30 days, restorable until then)')
    .requiredOption('--confirm-domain <domain>', 'the site’s domain, to confirm')
    .addHelpText('after', example('touchtrail sites delete ttid_… --confirm-domain shop.example.com'))
    .action(
      action<{ confirmDomain: string }>(async (ctx, options, args) => {
        const answer = await unwrap(
          ctx.client.DELETE('/v1/sites/{siteId}', {
            params: { path: { siteId: siteArgument(ctx, args) } },
            body: { confirm_domain: options.confirmDomain },
          }),
        );
        ctx.print(
          answer,
          () =>
            `Deletion of ${answer.domain} scheduled: data is erased on ${formatTime(answer.effective_at)}.\n` +
            `Undo with: touchtrail sites restore ${answer.site_id}\n`,
        );
      }),
    );

  sites
    .command('restore')
    .argument('[site]', 'snippet key (default --site)')
    .description('Cancel a scheduled deletion')
    .addHelpText('after', example('touchtrail sites restore ttid_4kQp2ZrT9xVbN7mWcLs3Ed'))
    .action(
      action(async (ctx, _options, args) => {
        const answer = await unwrap(
          ctx.client.POST('/v1/sites/{siteId}/restore', {
            params: { path: { siteId: siteArgument(ctx, args) } },
            body: {},
          }),
        );
        ctx.print(answer, () => `${answer.domain} is active again (${answer.site_id}).\n`);
      }),
    );

  sites
    .command('export')
    .argument('[site]', 'snippet key (default --site)')
    .description('Download the site’s raw visits, events and payments, written as they arrive')
    .option('--from <date>', 'first UTC day, YYYY-MM-DD (default 29 days before --to)', parseDay)
    .option('--to <date>', 'last UTC day, YYYY-MM-DD (default today)', parseDay)
    .option('--format <format>', 'ndjson (default) or csv', oneOf(['ndjson', 'csv'] as const))
    .option('--records <kinds>', 'visits,events,payments (default all; csv takes exactly one)', parseRecords)
    .option('--out <file>', 'write to this file (default stdout)')
    .addHelpText(
      'after',
      example(
        'touchtrail sites export --from 2026-01-01 --to 2026-03-31 --out shop.ndjson',
        'touchtrail sites export ttid_… --format csv --records payments --out payments.csv',
      ),
    )
    .action(
      action<ExportOptions>(async (ctx, options, args) => {
        if (options.format === 'csv' && options.records?.length !== 1)
          throw new UsageError(
            'a csv export holds one kind of record',
            'Pass --records visits, --records events or --records payments (or --format ndjson).',
          );
        const siteId = siteArgument(ctx, args);
        const query = {
          ...(options.from ? { from: options.from } : {}),
          ...(options.to ? { to: options.to } : {}),
          ...(options.format ? { format: options.format } : {}),
          ...(options.records ? { records: options.records.join(',') } : {}),
        };
        await downloadTo(
          ctx,
          `/v1/sites/${siteId}/export`,
          (client) =>
            client.GET('/v1/sites/{siteId}/export', {
              params: { path: { siteId }, query },
              parseAs: 'stream',
            }),
          options.out,
        );
      }),
    );
}
