/**
 * The `touchtrail` command tree: global flags, then one group per area of the API. Groups are
 * made with `program.command()` so they inherit the error handling set here.
 */
import { Command } from 'commander';
import { registerCrawlers } from './commands/crawlers.js';
import { registerEvents } from './commands/events.js';
import { registerFunnels } from './commands/funnels.js';
import { registerGoals } from './commands/goals.js';
import { registerImport } from './commands/import.js';
import { registerKeys } from './commands/keys.js';
import { registerLogin } from './commands/login.js';
import { registerMcp } from './commands/mcp.js';
import { registerPayments } from './commands/payments.js';
import { registerPrivacy } from './commands/privacy.js';
import { registerRealtime } from './commands/realtime.js';
import { registerRevenue } from './commands/revenue.js';
import { registerSessions } from './commands/sessions.js';
import { registerSites } from './commands/sites.js';
import { registerSnippet } from './commands/snippet.js';
import { registerStats } from './commands/stats.js';
import { registerVisibility } from './commands/visibility.js';
import { registerVisitors } from './commands/visitors.js';
import { registerWebhooks } from './commands/webhooks.js';
import { CLI_VERSION } from './version.js';

export function buildProgram(): Command {
  const program = new Command('touchtrail')
    .description(
      'The Touchtrail command-line client: traffic, goals, revenue and settings from your terminal.',
    )
    .version(CLI_VERSION)
    .option('--json', 'print the API’s JSON answer unchanged (for scripts)')
    .option('--profile <name>', 'use this saved profile (default TOUCHTRAIL_PROFILE, else "default")')
    .option('--url <url>', 'server address (default TOUCHTRAIL_URL, else the profile’s)')
    .option('--site <snippet-key>', 'the site, ttid_… (default TOUCHTRAIL_SITE, else the profile’s)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      '\nConfiguration: flags, then TOUCHTRAIL_URL, TOUCHTRAIL_API_KEY, TOUCHTRAIL_SITE, TOUCHTRAIL_PROFILE,\n' +
        'then the profile saved by touchtrail login. Exit codes: 0 ok, 1 usage, 2 API error, 3 network.\n' +
        '\nExample:\n  $ touchtrail login\n  $ touchtrail stats --site ttid_… --range 30d --by channel\n',
    );
  for (const register of [
    registerLogin,
    registerSites,
    registerSnippet,
    registerStats,
    registerRealtime,
    registerGoals,
    registerFunnels,
    registerSessions,
    registerVisitors,
    registerEvents,
    registerRevenue,
    registerCrawlers,
    registerVisibility,
    registerWebhooks,
    registerKeys,
    registerPayments,
    registerPrivacy,
    registerImport,
    registerMcp,
  ])
    register(program);
  return program;
}
