/**
 * What every command receives: the resolved settings, a client made on first use (so commands
 * that need no key never ask for one), the site, and `print`, which writes the API's JSON
 * unchanged under `--json` and the human rendering otherwise.
 */
import { createClient, type TouchtrailClient } from '@touchtrail/client';
import type { Command } from 'commander';
import { type GlobalFlags, resolveSettings, type Settings } from './config/settings.js';
import { UsageError } from './errors.js';
import { CLI_VERSION } from './version.js';

export interface Context {
  json: boolean;
  /** The global flags as typed, before the environment and the profile fill gaps. */
  flags: GlobalFlags;
  env: NodeJS.ProcessEnv;
  settings: Settings;
  readonly client: TouchtrailClient;
  /** The snippet key from `--site`, `TOUCHTRAIL_SITE` or the profile; a usage error when none. */
  site(): string;
  /** `--json`: the data as the API answered it; else the human text. */
  print(data: unknown, human: () => string): void;
  out(text: string): void;
  err(text: string): void;
}

export function clientFor(url: string, apiKey: string): TouchtrailClient {
  return createClient({ baseUrl: url, apiKey, userAgent: `touchtrail-cli/${CLI_VERSION}` });
}

export async function createContext(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Context> {
  const settings = await resolveSettings(flags, env);
  const json = Boolean(flags.json);
  let client: TouchtrailClient | undefined;
  const out = (text: string) => process.stdout.write(text);
  return {
    json,
    flags,
    env,
    settings,
    get client() {
      if (!settings.apiKey)
        throw new UsageError('no API key', 'Run touchtrail login or set TOUCHTRAIL_API_KEY.');
      client ??= clientFor(settings.url, settings.apiKey);
      return client;
    },
    site() {
      if (!settings.site)
        throw new UsageError(
          'no site given',
          'Pass --site ttid_… or set TOUCHTRAIL_SITE (touchtrail sites list shows your sites).',
        );
      return settings.site;
    },
    print(data, human) {
      if (json) {
        if (data !== undefined) out(`${JSON.stringify(data, null, 2)}\n`);
      } else out(human());
    },
    out,
    err: (text) => process.stderr.write(text),
  };
}

type Options = object;

/**
 * Wraps a command's handler: builds the context from the global flags and hands over the
 * command's own options and its positional arguments.
 */
export function action<O extends Options = Options>(
  handler: (ctx: Context, options: O, args: string[]) => Promise<void>,
) {
  return async (...params: unknown[]) => {
    const command = params.at(-1) as Command;
    const ctx = await createContext(command.optsWithGlobals() as GlobalFlags);
    await handler(ctx, command.opts() as O, command.args);
  };
}
