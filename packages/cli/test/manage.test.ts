/**
 * The configuration commands: sites (with the snippet), webhooks against a local TLS receiver,
 * API keys and bot tokens. Secrets the API hands out once are printed once; listings never show
 * them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestPki,
  startReceiver,
  type TestReceiver,
} from '../../server/src/webhooks/webhooks.fixtures.js';
import { jsonOf, useCliServer } from './harness.js';

const pki = createTestPki();
const server = useCliServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', NODE_EXTRA_CA_CERTS: pki.caFile });
let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver(pki.leaf);
});
afterAll(async () => {
  await receiver?.close();
  pki.remove();
});

describe('sites and snippet', () => {
  it('sites list and get print the sites; --json is the API’s answer', async () => {
    const [list, listJson, get, getJson] = await Promise.all([
      server.run(['sites', 'list']),
      server.run(['sites', 'list', '--json']),
      server.run(['sites', 'get']),
      server.run(['sites', 'get', server.site, '--json']),
    ]);
    expect(jsonOf(listJson)).toEqual((await server.api('GET', '/v1/sites')).body);
    expect(jsonOf(getJson)).toEqual((await server.api('GET', `/v1/sites/${server.site}`)).body);
    expect(list.stdout).toMatch(
      new RegExp(
        `^${server.site}\\s+Shop 🛍\\s+shop\\.example\\.com\\s+last_touch\\s+USD\\s+awaiting first event$`,
        'm',
      ),
    );
    expect(get.stdout).toMatch(/Cookie domain\s+host-only \(suggested: example\.com\)/);
  });

  it('sites create prints the new key once; update, delete and restore follow the lifecycle', async () => {
    const created = await server.run([
      'sites',
      'create',
      '--domain',
      'blog.example.org',
      '--name',
      'Blog',
      '--region',
      'us',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const key = /API key\s+(tk_live_\w+)/.exec(created.stdout)?.[1];
    expect(key).toMatch(/^tk_live_/);
    const site = /Site\s+(ttid_\w+)/.exec(created.stdout)?.[1] ?? '';
    const updated = await server.run([
      'sites',
      'update',
      site,
      '--model',
      'linear',
      '--currency',
      'EUR',
      '--cookie-domain',
      'example.org',
    ]);
    expect(updated.stdout).toMatch(/Model\s+linear/);
    expect(updated.stdout).toMatch(/Currency\s+EUR/);
    const snippet = await server.run(['snippet', site]);
    expect(snippet.stdout).toBe(
      `<script defer src="${server.url}/t.js" data-site="${site}" data-cookie-domain="example.org"></script>\n`,
    );
    const deleted = await server.run([
      'sites',
      'delete',
      site,
      '--confirm-domain',
      'blog.example.org',
      '--json',
    ]);
    expect(jsonOf(deleted)).toMatchObject({ status: 'deletion_scheduled', site_id: site, window_days: 30 });
    const gone = await server.run(['sites', 'get', site]);
    expect(gone.code).toBe(2);
    const restored = await server.run(['sites', 'restore', site]);
    expect(restored.stdout).toBe(`blog.example.org is active again (${site}).\n`);
  });

  it('snippet without a cookie domain has no data-cookie-domain', async () => {
    const run = await server.run(['snippet']);
    expect(run.stdout).toBe(`<script defer src="${server.url}/t.js" data-site="${server.site}"></script>\n`);
  });
});

describe('webhooks', () => {
  it('create, list, test, deliveries, update, rotate and delete', async () => {
    const created = await server.run([
      'webhooks',
      'create',
      '--endpoint',
      receiver.url,
      '--event',
      'conversion.attributed',
      '--json',
    ]);
    const hook = jsonOf<{ id: string; secret: string; verification_status: string }>(created);
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.verification_status).toBe('verified');
    const [list, listJson, tested] = await Promise.all([
      server.run(['webhooks', 'list']),
      server.run(['webhooks', 'list', '--json']),
      server.run(['webhooks', 'test', hook.id]),
    ]);
    expect(jsonOf(listJson)).toEqual((await server.api('GET', `/v1/sites/${server.site}/webhooks`)).body);
    expect(list.stdout).not.toContain('whsec_');
    expect(list.stdout).toMatch(
      new RegExp(
        `${hook.id}\\s+https://127\\.0\\.0\\.1:\\d+/hook\\s+conversion\\.attributed\\s+yes\\s+verified`,
      ),
    );
    expect(tested.stdout).toMatch(/Result\s+delivered\nStatus\s+204/);
    const deliveries = await server.run(['webhooks', 'deliveries', hook.id]);
    expect(deliveries.stdout.match(/webhook\.ping\s+succeeded\s+1\s+204/g)).toHaveLength(2);
    const disabled = await server.run(['webhooks', 'update', hook.id, '--disable']);
    expect(disabled.stdout).toMatch(/conversion\.attributed\s+no\s+verified/);
    const rotated = await server.run(['webhooks', 'rotate', hook.id, '--json']);
    expect(jsonOf<{ secret: string }>(rotated).secret).not.toBe(hook.secret);
    const deleted = await server.run(['webhooks', 'delete', hook.id]);
    expect(deleted.stdout).toBe(`Deleted webhook ${hook.id}.\n`);
  });
});

describe('keys and bot tokens', () => {
  it('keys create prints the key once; list shows prefixes; revoke ends it', async () => {
    const created = await server.run([
      'keys',
      'create',
      '--name',
      'CI reports',
      '--scope',
      'stats:read',
      '--site',
      server.site,
      '--json',
    ]);
    const key = jsonOf<{ id: string; api_key: string }>(created);
    const [list, listJson] = await Promise.all([
      server.run(['keys', 'list']),
      server.run(['keys', 'list', '--json']),
    ]);
    expect(jsonOf(listJson)).toEqual((await server.api('GET', '/v1/account/keys')).body);
    expect(list.stdout).not.toContain(key.api_key);
    expect(list.stdout).toMatch(
      new RegExp(`${key.id}\\s+CI reports\\s+tk_live_\\w+…\\s+stats:read\\s+${server.site}\\s+—\\s+active`),
    );
    const revoked = await server.run(['keys', 'revoke', key.id]);
    expect(revoked.stdout).toBe(`Revoked key ${key.id}.\n`);
    const refused = await server.run(['sites', 'list'], { env: { TOUCHTRAIL_API_KEY: key.api_key } });
    expect(refused.code).toBe(2);
  });

  it('bot-tokens create, list and revoke', async () => {
    const created = await server.run(['bot-tokens', 'create', '--name', 'edge']);
    const token = /Token\s+(tt_bot_\S+)/.exec(created.stdout)?.[1] ?? '';
    const id = /Id\s+(\S+)/.exec(created.stdout)?.[1] ?? '';
    expect(token).toMatch(/^tt_bot_/);
    const [list, listJson] = await Promise.all([
      server.run(['bot-tokens', 'list']),
      server.run(['bot-tokens', 'list', '--json']),
    ]);
    expect(jsonOf(listJson)).toEqual(
      (await server.api('GET', `/v1/account/bot-tokens?site_id=${server.site}`)).body,
    );
    expect(list.stdout).not.toContain(token);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+edge\\s+tt_bot_\\S+…\\s+${server.site}\\s+—\\s+active`));
    const revoked = await server.run(['bot-tokens', 'revoke', id]);
    expect(revoked.stdout).toMatch(
      new RegExp(`^Revoked bot token ${id} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC\\.\\n$`),
    );
  });
});
