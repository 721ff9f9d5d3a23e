/**
 * Host names an endpoint URL may use: at save time a name must end in a suffix of the
 * public suffix list's ICANN section and be well formed (no empty label, no trailing dot). Each
 * case resolves to a public address, so only the name rule can refuse it.
 */
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from './webhook-url.js';
import { urlCheckVerdict } from './webhooks.fixtures.js';

const resolveToPublic = async () => ['93.184.216.34'];

async function verdictOn(url: string, allowPrivate = false): Promise<string> {
  const verdict = await urlCheckVerdict(checkWebhookUrl(url, { allowPrivate, resolve: resolveToPublic }));
  return 'refused' in verdict ? verdict.refused : `accepted ${verdict.accepted}`;
}

describe('webhook URL host names', () => {
  it.each([
    ['https://vm./hook', 'malformed'],
    ['https://localhost../hook', 'malformed'],
    ['https://hooks.example.com./hook', 'malformed'],
    ['https://hooks.example.com../hook', 'malformed'],
    ['https://a..example.com/hook', 'malformed'],
    ['https://.example.com/hook', 'malformed'],
    ['https://vm/hook', 'public domain'],
    ['https://hooks:8443/hook', 'public domain'],
    ['https://intranet-hooks/hook', 'public domain'],
    ['https://rebind.example/hook', 'public domain'],
    ['https://hooks.test/hook', 'public domain'],
    ['https://hooks.invalid/hook', 'public domain'],
    ['https://localhost.localdomain/hook', 'public domain'],
    ['https://hooks.corp/hook', 'public domain'],
    ['https://com/hook', 'public domain'],
    ['https://co.uk/hook', 'public domain'],
    ['https://localhost/hook', 'local'],
  ])('refuses %s (%s)', async (url, words) => {
    const verdict = await verdictOn(url);
    expect(verdict).not.toMatch(/^accepted/);
    expect(verdict).toContain(words);
  });

  it.each([
    'https://hooks.example.com/hook',
    'https://a.co.uk/hook',
    'https://herokuapp.com/hook',
    'https://my-app.herokuapp.com/hook',
    'https://hooks.example.github.io/hook',
    'https://例子.中国/hook',
    'https://HOOKS.Example.COM:8443/hook',
  ])('accepts %s', async (url) => {
    expect(await verdictOn(url)).toBe(`accepted ${new URL(url).href}`);
  });

  it('keeps the test-only allowance for local receivers, but not malformed names', async () => {
    expect(await verdictOn('https://localhost:8443/hook', true)).toBe('accepted https://localhost:8443/hook');
    expect(await verdictOn('https://127.0.0.1:8443/hook', true)).toBe('accepted https://127.0.0.1:8443/hook');
    expect(await verdictOn('https://localhost../hook', true)).toContain('malformed');
  });
});
