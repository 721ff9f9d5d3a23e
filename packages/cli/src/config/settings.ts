/**
 * Where the server, the key and the site come from: a flag first, then the environment
 * (`TOUCHTRAIL_URL`, `TOUCHTRAIL_API_KEY`, `TOUCHTRAIL_SITE`, `TOUCHTRAIL_PROFILE`), then the
 * profile. This module is the CLI's only reader of those variables.
 */
import { UsageError } from '../errors.js';
import { DEFAULT_PROFILE, type Profile, readConfig } from './profiles.js';

export const DEFAULT_URL = 'http://localhost:8080';

export interface GlobalFlags {
  json?: boolean;
  profile?: string;
  url?: string;
  site?: string;
}

export interface Settings {
  url: string;
  apiKey: string | undefined;
  site: string | undefined;
  profileName: string;
  profile: Profile | undefined;
}

export async function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv): Promise<Settings> {
  const named = flags.profile ?? env.TOUCHTRAIL_PROFILE;
  const profileName = named || DEFAULT_PROFILE;
  const profile = (await readConfig(env)).profiles[profileName];
  if (named && !profile)
    throw new UsageError(
      `there is no profile named "${profileName}"`,
      `Run touchtrail login --profile ${profileName}, or touchtrail profiles to list them.`,
    );
  const url = flags.url || env.TOUCHTRAIL_URL || profile?.url || DEFAULT_URL;
  if (!/^https?:\/\/[^/]/i.test(url))
    throw new UsageError(
      `"${url}" is not an http:// or https:// URL`,
      'Pass --url or set TOUCHTRAIL_URL to the server address.',
    );
  return {
    url: url.replace(/\/+$/, ''),
    apiKey: env.TOUCHTRAIL_API_KEY || profile?.api_key,
    site: flags.site || env.TOUCHTRAIL_SITE || profile?.site,
    profileName,
    profile,
  };
}
