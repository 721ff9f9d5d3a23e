/** `touchtrail login`, `logout` and `profiles`: saved server addresses and keys. */
import { TouchtrailApiError, unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { DEFAULT_PROFILE, maskKey, readConfig, removeProfile, saveProfile } from '../config/profiles.js';
import { readKey } from '../config/read-secret.js';
import { DEFAULT_URL, type GlobalFlags } from '../config/settings.js';
import { clientFor } from '../context.js';
import { UsageError } from '../errors.js';
import { example } from '../options.js';
import { renderTable } from '../output/table.js';

const flagsOf = (command: Command) => command.optsWithGlobals() as GlobalFlags & { key?: string };
const profileNameOf = (flags: GlobalFlags) =>
  flags.profile || process.env.TOUCHTRAIL_PROFILE || DEFAULT_PROFILE;

/** Proves the key works: it must be accepted; a key that cannot read stats is still a key. */
async function checkKey(url: string, apiKey: string): Promise<string> {
  try {
    const { sites } = await unwrap(clientFor(url, apiKey).GET('/v1/sites'));
    return `${sites.length} site${sites.length === 1 ? '' : 's'} reachable`;
  } catch (error) {
    if (error instanceof TouchtrailApiError && error.status === 403)
      return 'the key cannot list sites (no stats:read)';
    throw error;
  }
}

/**
 * A key scoped to one site can only reach that site, so the profile remembers it and later
 * commands need no --site; another site asked for is refused before anything is saved.
 */
async function siteToSave(
  url: string,
  apiKey: string,
  asked: string | undefined,
  saved: string | undefined,
): Promise<string | undefined> {
  const key = await unwrap(clientFor(url, apiKey).GET('/v1/account/keys/current'));
  if (!key.site_id) return asked || saved;
  if (asked && asked !== key.site_id)
    throw new UsageError(
      `this key reaches only site ${key.site_id}, not ${asked}`,
      'Log in without --site, or with a key for that site.',
    );
  return key.site_id;
}

export function registerLogin(program: Command) {
  program
    .command('login')
    .description('Check an API key against the server and save it in a profile (file mode 0600)')
    .option('--key <api-key>', 'the key (default: a hidden prompt, or the first line of stdin)')
    .addHelpText(
      'after',
      example(
        'touchtrail login --url https://analytics.example.com',
        'printf %s "$KEY" | touchtrail login --profile staging --url https://staging.example.com --site ttid_…',
      ),
    )
    .action(async (_options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const name = profileNameOf(flags);
      const existing = (await readConfig(process.env)).profiles[name];
      const url = (flags.url || process.env.TOUCHTRAIL_URL || existing?.url || DEFAULT_URL).replace(
        /\/+$/,
        '',
      );
      if (!/^https?:\/\/[^/]/i.test(url)) throw new UsageError(`"${url}" is not an http:// or https:// URL`);
      const apiKey = flags.key?.trim() || (await readKey(`API key for ${url}: `));
      const reach = await checkKey(url, apiKey);
      const site = await siteToSave(url, apiKey, flags.site, existing?.site);
      const file = await saveProfile(process.env, name, { url, api_key: apiKey, ...(site ? { site } : {}) });
      process.stdout.write(
        `Logged in to ${url} as profile "${name}" (key ${maskKey(apiKey)}, ${reach}${site ? `, site ${site}` : ''}).\nSaved to ${file}\n`,
      );
    });

  program
    .command('logout')
    .description('Forget a saved profile (the key itself stays valid until revoked)')
    .addHelpText('after', example('touchtrail logout --profile staging'))
    .action(async (_options: unknown, command: Command) => {
      const name = profileNameOf(flagsOf(command));
      if (!(await removeProfile(process.env, name)))
        throw new UsageError(`there is no profile named "${name}"`, 'touchtrail profiles lists them.');
      process.stdout.write(
        `Removed profile "${name}". To disable its key too: touchtrail keys list, then touchtrail keys revoke <id>.\n`,
      );
    });

  program
    .command('profiles')
    .description('List saved profiles (keys shortened)')
    .addHelpText('after', example('touchtrail profiles'))
    .action(async (_options: unknown, command: Command) => {
      const flags = flagsOf(command);
      const active = profileNameOf(flags);
      const { profiles } = await readConfig(process.env);
      const entries = Object.entries(profiles);
      if (flags.json) {
        const listed = entries.map(([name, p]) => ({
          name,
          url: p.url,
          key: maskKey(p.api_key),
          site: p.site ?? null,
          active: name === active,
        }));
        process.stdout.write(`${JSON.stringify({ profiles: listed }, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        renderTable(
          [{ header: '' }, { header: 'Profile' }, { header: 'URL' }, { header: 'Key' }, { header: 'Site' }],
          entries.map(([name, p]) => [
            name === active ? '*' : '',
            name,
            p.url,
            maskKey(p.api_key),
            p.site ?? '—',
          ]),
          'No profiles yet: run touchtrail login.',
        ),
      );
    });
}
