/**
 * Named profiles (server URL, API key, default site) kept in the user's config folder:
 * `$XDG_CONFIG_HOME/touchtrail/config.json`, else `~/.config/touchtrail/`, on Windows
 * `%APPDATA%\touchtrail\`. The file holds keys, so it is written 0600 in a 0700 folder.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../errors.js';

export interface Profile {
  url: string;
  api_key: string;
  site?: string;
}

export interface ConfigFile {
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

export function configFolder(env: NodeJS.ProcessEnv): string {
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'touchtrail');
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'touchtrail');
}

export const configPath = (env: NodeJS.ProcessEnv) => path.join(configFolder(env), 'config.json');

export async function readConfig(env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  const file = configPath(env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<ConfigFile>;
    return { profiles: typeof parsed.profiles === 'object' && parsed.profiles ? parsed.profiles : {} };
  } catch {
    throw new UsageError(`${file} is not valid JSON`, 'Fix or delete it, then run touchtrail login again.');
  }
}

/** Replaces the whole file at once (write beside it, then rename), keeping it private. */
async function writeConfig(env: NodeJS.ProcessEnv, config: ConfigFile): Promise<string> {
  const folder = configFolder(env);
  await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
  await chmod(folder, FOLDER_MODE);
  const file = configPath(env);
  const draft = `${file}.${process.pid}.tmp`;
  await writeFile(draft, `${JSON.stringify(config, null, 2)}\n`, { mode: FILE_MODE });
  await chmod(draft, FILE_MODE);
  await rename(draft, file);
  return file;
}

export async function saveProfile(env: NodeJS.ProcessEnv, name: string, profile: Profile): Promise<string> {
  const config = await readConfig(env);
  config.profiles[name] = profile;
  return writeConfig(env, config);
}

/** False when there was no such profile. */
export async function removeProfile(env: NodeJS.ProcessEnv, name: string): Promise<boolean> {
  const config = await readConfig(env);
  if (!config.profiles[name]) return false;
  delete config.profiles[name];
  await writeConfig(env, config);
  return true;
}

/** `tk_live_ab12…` — enough to recognise a key, never enough to use it. */
export function maskKey(key: string): string {
  const prefix = key.startsWith('tk_live_') ? 'tk_live_' : '';
  return `${prefix}${key.slice(prefix.length, prefix.length + 4)}…`;
}
