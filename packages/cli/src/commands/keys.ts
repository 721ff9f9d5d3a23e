/** `touchtrail keys` and `touchtrail bot-tokens`: API keys and crawler-report tokens of the account. */
import { API_KEY_SCOPES, type ApiKeyScope as Scope, unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import { example, oneOf } from '../options.js';
import { formatTime, orDash } from '../output/format.js';
import { renderDetails, renderTable } from '../output/table.js';

const parseScope = oneOf(API_KEY_SCOPES);
/** `stats:read, config:write, credentials:write or ingest:write`. */
const SCOPE_CHOICES = `${API_KEY_SCOPES.slice(0, -1).join(', ')} or ${API_KEY_SCOPES.at(-1)}`;

export function registerKeys(program: Command) {
  const keys = program.command('keys').description('API keys of the account (needs credentials:write)');

  keys
    .command('list')
    .description('List keys: prefix and scopes, never the key')
    .addHelpText('after', example('touchtrail keys list'))
    .action(
      action(async (ctx) => {
        const answer = await unwrap(ctx.client.GET('/v1/account/keys'));
        ctx.print(answer, () =>
          renderTable(
            [
              { header: 'Id' },
              { header: 'Name' },
              { header: 'Prefix' },
              { header: 'Scopes' },
              { header: 'Site' },
              { header: 'Last used' },
              { header: 'State' },
            ],
            answer.keys.map((k) => [
              k.id,
              k.name,
              `${k.prefix}…`,
              k.scopes.join(' '),
              k.site_id ?? 'all',
              formatTime(k.last_used_at),
              k.revoked_at
                ? 'revoked'
                : k.expires_at && Date.parse(k.expires_at) < Date.now()
                  ? 'expired'
                  : 'active',
            ]),
          ),
        );
      }),
    );

  keys
    .command('create')
    .description(
      'Create a key; prints it once. With --site it reaches that site only (TOUCHTRAIL_SITE does not restrict it)',
    )
    .requiredOption('--name <name>', 'what the key is for')
    .requiredOption('--scope <scope>', `${SCOPE_CHOICES} (repeatable)`, (v: string, p: Scope[] = []) => [
      ...p,
      parseScope(v),
    ])
    .option('--expires <iso>', 'when the key stops working')
    .addHelpText(
      'after',
      example('touchtrail keys create --name "CI reports" --scope stats:read --site ttid_…'),
    )
    .action(
      action<{ name: string; scope: Scope[]; expires?: string }>(async (ctx, options) => {
        // Only an explicit --site restricts the key: a site from the environment is a default for reports.
        const site = ctx.flags.site;
        const created = await unwrap(
          ctx.client.POST('/v1/account/keys', {
            body: {
              name: options.name,
              scopes: options.scope,
              ...(site ? { site_id: site } : {}),
              ...(options.expires ? { expires_at: options.expires } : {}),
            },
          }),
        );
        ctx.print(created, () =>
          renderDetails([
            ['Id', created.id],
            ['Name', created.name],
            ['Scopes', created.scopes.join(' ')],
            ['Site', created.site_id ?? 'all sites'],
            ['Expires', formatTime(created.expires_at)],
            ['Key', `${created.api_key}  (shown once: store it now)`],
          ]),
        );
      }),
    );

  keys
    .command('revoke')
    .argument('<id>', 'key id (keys list)')
    .description('Revoke a key, effective at once')
    .addHelpText('after', example('touchtrail keys revoke 2c9a…-uuid'))
    .action(
      action(async (ctx, _options, args) => {
        await unwrap(
          ctx.client.DELETE('/v1/account/keys/{id}', { params: { path: { id: args[0] as string } } }),
        );
        ctx.print(undefined, () => `Revoked key ${args[0]}.\n`);
      }),
    );

  const tokens = program.command('bot-tokens').description('Tokens that report AI crawler hits (tt_bot_…)');

  tokens
    .command('list')
    .description('List bot tokens (metadata only); --site narrows to one site')
    .addHelpText('after', example('touchtrail bot-tokens list --site ttid_…'))
    .action(
      action(async (ctx) => {
        const site = ctx.settings.site;
        const answer = await unwrap(
          ctx.client.GET('/v1/account/bot-tokens', { params: { query: site ? { site_id: site } : {} } }),
        );
        ctx.print(answer, () =>
          renderTable(
            [
              { header: 'Id' },
              { header: 'Name' },
              { header: 'Prefix' },
              { header: 'Site' },
              { header: 'Last used' },
              { header: 'State' },
            ],
            answer.bot_tokens.map((b) => [
              b.id,
              orDash(b.name),
              `${b.prefix}…`,
              b.snippet_key,
              formatTime(b.last_used_at),
              b.revoked_at ? 'revoked' : 'active',
            ]),
            'No bot tokens: create one with touchtrail bot-tokens create --site ttid_…',
          ),
        );
      }),
    );

  tokens
    .command('create')
    .description('Create a bot token for a site; prints it once')
    .option('--name <name>', 'what the token is for')
    .addHelpText('after', example('touchtrail bot-tokens create --site ttid_… --name "edge middleware"'))
    .action(
      action<{ name?: string }>(async (ctx, options) => {
        const created = await unwrap(
          ctx.client.POST('/v1/account/bot-tokens', {
            body: { site_id: ctx.site(), ...(options.name ? { name: options.name } : {}) },
          }),
        );
        ctx.print(created, () =>
          renderDetails([
            ['Id', created.id],
            ['Site', created.snippet_key],
            ['Name', orDash(created.name)],
            ['Token', `${created.plaintext_token}  (shown once: give it to the crawler middleware)`],
          ]),
        );
      }),
    );

  tokens
    .command('revoke')
    .argument('<id>', 'token id (bot-tokens list)')
    .description('Revoke a bot token (effective at the edge within 60 seconds)')
    .addHelpText('after', example('touchtrail bot-tokens revoke 7e4b…-uuid'))
    .action(
      action(async (ctx, _options, args) => {
        const answer = await unwrap(
          ctx.client.DELETE('/v1/account/bot-tokens/{tokenId}', {
            params: { path: { tokenId: args[0] as string } },
          }),
        );
        ctx.print(answer, () => `Revoked bot token ${answer.id} at ${formatTime(answer.revoked_at)}.\n`);
      }),
    );
}
