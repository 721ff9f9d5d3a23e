/**
 * What a command does when not told: login with a key scoped to one site remembers that site,
 * and every report command asks for the same range, the last 30 days (today included).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigFolder, jsonOf, runCli, useCliServer } from './harness.js';

const server = useCliServer();

describe('login with a site-scoped key', () => {
  it('remembers the key’s site, so later commands need no --site', async () => {
    const scoped = await server.t.app.inject({
      method: 'POST',
      url: '/v1/account/keys',
      headers: { authorization: `Bearer ${server.key}` },
      payload: { name: 'one site', scopes: ['stats:read'], site_id: server.site },
    });
    expect(scoped.statusCode, scoped.body).toBe(201);
    const key = scoped.json<{ api_key: string }>().api_key;
    const config = freshConfigFolder();
    const env = { XDG_CONFIG_HOME: config };

    const login = await runCli(['login', '--url', server.url, '--key', key], { env });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`site ${server.site}`);
    const file = path.join(config, 'touchtrail', 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.site).toBe(server.site);

    // No --site and no TOUCHTRAIL_SITE: the profile's site answers.
    const stats = await runCli(['stats', '--json'], { env });
    expect(stats.code, stats.stderr).toBe(0);
    expect(jsonOf<{ meta: unknown }>(stats).meta).toBeDefined();
  });

  it('refuses a --site the key cannot reach, and saves nothing', async () => {
    const scoped = await server.t.app.inject({
      method: 'POST',
      url: '/v1/account/keys',
      headers: { authorization: `Bearer ${server.key}` },
      payload: { name: 'one site', scopes: ['stats:read'], site_id: server.site },
    });
    const key = scoped.json<{ api_key: string }>().api_key;
    const env = { XDG_CONFIG_HOME: freshConfigFolder() };
    const other = 'ttid_0000000000000000000000';
    const login = await runCli(['login', '--url', server.url, '--key', key, '--site', other], { env });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain(`this key reaches only site ${server.site}, not ${other}`);
    expect(login.stderr).not.toContain(key);
    expect(jsonOf(await runCli(['profiles', '--json'], { env }))).toEqual({ profiles: [] });
  });
});

describe('the default range of the report commands', () => {
  // A pass-through in front of the real server that notes what each command asked for.
  const asked: { url: URL; body: string }[] = [];
  let proxy: Server;
  let proxyUrl: string;
  beforeAll(async () => {
    proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      asked.push({ url: new URL(request.url ?? '/', server.url), body });
      const answer = await fetch(`${server.url}${request.url}`, {
        method: request.method,
        headers: {
          authorization: request.headers.authorization ?? '',
          'content-type': request.headers['content-type'] ?? 'application/json',
        },
        body: body === '' ? undefined : body,
      });
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => proxy.close(resolve)));

  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

  it.each([
    'events list',
    'events names',
    'sessions list',
    'visitors list',
    'visitors get vh_nobody',
    'goals timeseries',
    'goals properties signup',
    'goals visitors signup',
    'funnels report 00000000-0000-4000-8000-000000000000',
    'revenue',
    'crawlers',
    'visibility',
  ])('%s asks for the last 30 days', async (command) => {
    const args = command.split(' ');
    const before = asked.length;
    await server.run([...args, '--json'], { env: { TOUCHTRAIL_URL: proxyUrl } });
    const request = asked.slice(before).find((one) => one.url.searchParams.has('site_id'));
    expect(request, `the request of ${args.join(' ')}`).toBeDefined();
    // The day may turn between the command and this line.
    expect([daysAgo(29), daysAgo(30)]).toContain(request?.url.searchParams.get('from'));
    expect([today, daysAgo(1)]).toContain(request?.url.searchParams.get('to'));
  });

  it.each(['stats', 'sources', 'pages', 'funnels query --step page:/pricing --step event:signup'])(
    '%s asks for 30d',
    async (command) => {
      const args = command.split(' ');
      const before = asked.length;
      await server.run([...args, '--json'], { env: { TOUCHTRAIL_URL: proxyUrl } });
      const request = asked.slice(before).find((one) => one.body.includes('date_range'));
      expect(JSON.parse(request?.body ?? '{}').date_range).toBe('30d');
    },
  );
});
