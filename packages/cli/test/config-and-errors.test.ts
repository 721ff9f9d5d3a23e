/**
 * Configuration and failure paths: login saves a private profile after checking the key,
 * flags beat the environment which beats the profile, and exit codes say what went wrong —
 * 1 usage, 2 API (with its error body), 3 network (with the URL) — without a stack trace or a key.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPort, freshConfigFolder, jsonOf, runCli, useCliServer } from './harness.js';

const server = useCliServer();

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe('login, profiles and logout', () => {
  it('login checks the key, writes a 0600 profile in a 0700 folder and never prints the key', async () => {
    const config = freshConfigFolder();
    const env = { XDG_CONFIG_HOME: config };
    const login = await runCli(['login', '--url', server.url, '--site', server.site], {
      env,
      input: `${server.key}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(
      /^Logged in to http:\/\/127\.0\.0\.1:\d+ as profile "default" \(key tk_live_\w{4}…, 1 site reachable, site ttid_\w+\)\./,
    );
    expect(login.stdout + login.stderr).not.toContain(server.key);
    const file = path.join(config, 'touchtrail', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { url: server.url, api_key: server.key, site: server.site } },
    });

    const [sites, profiles] = await Promise.all([
      runCli(['sites', 'list', '--json'], { env }),
      runCli(['profiles'], { env }),
    ]);
    expect(jsonOf<{ sites: unknown[] }>(sites).sites).toHaveLength(1);
    expect(profiles.stdout).toMatch(
      /^\*\s+default\s+http:\/\/127\.0\.0\.1:\d+\s+tk_live_\w{4}…\s+ttid_\w+$/m,
    );
    expect(profiles.stdout).not.toContain(server.key);

    const logout = await runCli(['logout'], { env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: {} });
  });

  it('login refuses a key the server refuses and saves nothing', async () => {
    const config = freshConfigFolder();
    const run = await runCli(
      [
        'login',
        '--profile',
        'bad',
        '--url',
        server.url,
        '--key',
        'tk_live_0000000000000000000000000000000000000000',
      ],
      {
        env: { XDG_CONFIG_HOME: config },
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"error": "unauthorized"');
    expect(run.stderr).not.toContain('tk_live_0000');
    const profiles = await runCli(['profiles', '--json'], { env: { XDG_CONFIG_HOME: config } });
    expect(jsonOf(profiles)).toEqual({ profiles: [] });
  });

  it('flags beat the environment, which beats the profile', async () => {
    const config = freshConfigFolder();
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const saved = await runCli(['login', '--profile', 'work', '--url', server.url, '--key', server.key], {
      env: { XDG_CONFIG_HOME: config },
    });
    expect(saved.code, saved.stderr).toBe(0);
    const base = { XDG_CONFIG_HOME: config, TOUCHTRAIL_PROFILE: 'work' };
    const [fromProfile, envOverProfile, flagOverEnv] = await Promise.all([
      runCli(['sites', 'list', '--json'], { env: base }),
      runCli(['sites', 'list', '--json'], { env: { ...base, TOUCHTRAIL_URL: dead } }),
      runCli(['sites', 'list', '--json', '--url', server.url], { env: { ...base, TOUCHTRAIL_URL: dead } }),
    ]);
    expect(fromProfile.code).toBe(0);
    expect(envOverProfile.code).toBe(3);
    expect(envOverProfile.stderr).toContain(`could not reach ${dead}/v1/sites`);
    expect(flagOverEnv.code).toBe(0);
  });
});

describe('exit codes', () => {
  it('1 for bad or missing flags, with what to do', async () => {
    const [unknown, badValue, noSite, noKey, nothing, badProfile] = await Promise.all([
      server.run(['goals', 'list', '--bogus']),
      server.run(['stats', '--range', 'fortnight']),
      server.run(['goals', 'list'], { env: { TOUCHTRAIL_SITE: undefined } }),
      runCli(['sites', 'list'], {
        env: { TOUCHTRAIL_URL: server.url, XDG_CONFIG_HOME: freshConfigFolder() },
      }),
      server.run(['sites', 'update']),
      server.run(['sites', 'list'], { env: { TOUCHTRAIL_PROFILE: 'nope' } }),
    ]);
    for (const run of [unknown, badValue, noSite, noKey, nothing, badProfile]) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      noStack(run.stderr);
    }
    expect(unknown.stderr).toContain("unknown option '--bogus'");
    expect(badValue.stderr).toContain("option '--range <range>' argument 'fortnight' is invalid");
    expect(noSite.stderr).toContain('Pass --site ttid_… or set TOUCHTRAIL_SITE');
    expect(noKey.stderr).toBe('touchtrail: no API key\nRun touchtrail login or set TOUCHTRAIL_API_KEY.\n');
    expect(nothing.stderr).toContain('Pass at least one of --name, --model, --cookie-domain, --currency.');
    expect(badProfile.stderr).toContain('Run touchtrail login --profile nope');
  });

  it('mcp needs a key like every other command', async () => {
    const run = await runCli(['mcp'], {
      env: { TOUCHTRAIL_URL: server.url, XDG_CONFIG_HOME: freshConfigFolder() },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('touchtrail: no API key\nRun touchtrail login or set TOUCHTRAIL_API_KEY.\n');
  });

  it('--help on a command shows an example and exits 0', async () => {
    const run = await server.run(['stats', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Example:\n  $ touchtrail stats --site ttid_… --range 30d --by channel');
  });

  it('2 for a revoked key, with the API’s error body', async () => {
    const key = await server.mint(['stats:read']);
    const revoked = await server.api('DELETE', `/v1/account/keys/${key.id}`);
    expect(revoked.status).toBe(204);
    const run = await server.run(['sites', 'list'], { env: { TOUCHTRAIL_API_KEY: key.api_key } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('touchtrail: the API answered 401');
    expect(
      JSON.parse(run.stderr.slice(run.stderr.indexOf('{'), run.stderr.lastIndexOf('}') + 1)),
    ).toMatchObject({ error: 'unauthorized' });
    expect(run.stderr).toContain('run touchtrail login or set TOUCHTRAIL_API_KEY');
    expect(run.stderr).not.toContain(key.api_key);
    noStack(run.stderr);
  });

  it('2 for a missing scope, naming it', async () => {
    const key = await server.mint(['stats:read']);
    const run = await server.run(['goals', 'create', 'nope'], { env: { TOUCHTRAIL_API_KEY: key.api_key } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"required_scope": "config:write"');
    expect(run.stderr).toContain('touchtrail keys create --scope config:write');
  });

  it('3 when the server cannot be reached, naming the URL', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const run = await server.run(['sites', 'list'], { env: { TOUCHTRAIL_URL: dead } });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `touchtrail: could not reach ${dead}/v1/sites\nCheck TOUCHTRAIL_URL (or --url, or the profile: touchtrail profiles) and that the server is running.\n`,
    );
  });
});
