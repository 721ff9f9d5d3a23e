/**
 * IPv4 addresses hidden inside IPv6 (a way to reach a private address past a naive check): every form is judged by the IPv4 address it
 * carries, by the classifier, by the URL rules at save time and by the transport and the guarded
 * lookup at connect time. A public IPv4 inside stays allowed only in the two forms a host can
 * really route (IPv4-mapped and well-known NAT64); the deprecated or tunnel forms are refused.
 */
import { describe, expect, it } from 'vitest';
import { blockedRange } from './address-policy.js';
import { createGuardedLookup } from './guarded-lookup.js';
import { createTransport } from './webhook-transport.js';
import { checkWebhookUrl } from './webhook-url.js';
import { urlCheckVerdict } from './webhooks.fixtures.js';

type Words = [string, string];

/** An IPv4 address as the two 16-bit hex words IPv6 text spells it with. */
function wordsOf(ipv4: string, xor = 0): Words {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  const word = (high: number, low: number) => (((high << 8) | low) ^ xor).toString(16);
  return [word(a, b), word(c, d)];
}

interface Form {
  name: string;
  build(ipv4: string): string;
  /** What a public IPv4 inside this form gets: null (allowed) or the form's range name. */
  publicVerdict: string | null;
}

const FORMS: Form[] = [
  {
    name: 'IPv4-mapped ::ffff:0:0/96',
    build: (v4) => `::ffff:${wordsOf(v4).join(':')}`,
    publicVerdict: null,
  },
  {
    name: 'IPv4-compatible ::/96',
    build: (v4) => `::${wordsOf(v4).join(':')}`,
    publicVerdict: 'ipv4Compatible',
  },
  {
    name: 'IPv4-compatible, dotted as inet_ntop prints it',
    build: (v4) => `::${v4}`,
    publicVerdict: 'ipv4Compatible',
  },
  {
    name: 'IPv4-translated ::ffff:0:0:0/96',
    build: (v4) => `::ffff:0:${wordsOf(v4).join(':')}`,
    publicVerdict: 'rfc6145',
  },
  { name: 'NAT64 64:ff9b::/96', build: (v4) => `64:ff9b::${wordsOf(v4).join(':')}`, publicVerdict: null },
  {
    name: 'local-use NAT64 64:ff9b:1::/48',
    build: (v4) => `64:ff9b:1:ab::${wordsOf(v4).join(':')}`,
    publicVerdict: 'rfc6052',
  },
  { name: '6to4 2002::/16', build: (v4) => `2002:${wordsOf(v4).join(':')}::1`, publicVerdict: '6to4' },
  {
    // Server 65.54.227.120 (public); the client address is stored XOR 0xffffffff.
    name: 'Teredo 2001::/32, client',
    build: (v4) => `2001:0:4136:e378:8000:63bf:${wordsOf(v4, 0xffff).join(':')}`,
    publicVerdict: 'teredo',
  },
  {
    // Client 8.8.8.8 (public), obfuscated as f7f7:f7f7.
    name: 'Teredo 2001::/32, server',
    build: (v4) => `2001:0:${wordsOf(v4).join(':')}:8000:63bf:f7f7:f7f7`,
    publicVerdict: 'teredo',
  },
];

/** [IPv4 inside, range, words of the 422 message]. */
const NON_PUBLIC: [string, string, string][] = [
  ['127.0.0.1', 'loopback', 'loopback'],
  ['127.1.2.3', 'loopback', 'loopback'],
  ['10.0.0.1', 'private', 'private'],
  ['192.168.1.1', 'private', 'private'],
  ['172.16.0.1', 'private', 'private'],
  ['169.254.0.1', 'linkLocal', 'link-local'],
  ['169.254.169.254', 'linkLocal', 'cloud metadata'],
  ['100.100.100.200', 'carrierGradeNat', 'carrier-grade NAT'],
];

const PUBLIC = ['8.8.8.8', '93.184.216.34'];

const publicResolver = async () => ['93.184.216.34'];
const strictUrlCheck = (url: string) =>
  checkWebhookUrl(url, { allowPrivate: false, resolve: publicResolver });

async function saveTimeRefusal(url: string): Promise<string> {
  const verdict = await urlCheckVerdict(strictUrlCheck(url));
  return 'refused' in verdict ? verdict.refused : 'accepted';
}

/** What the guarded lookup answers for `host` (an IP literal resolves to itself). */
function guardedLookupOf(host: string): Promise<string> {
  const lookup = createGuardedLookup(false);
  return new Promise((resolve) => {
    lookup(host, { all: true }, (error, addresses) =>
      resolve(error ? error.message : `allowed ${JSON.stringify(addresses)}`),
    );
  });
}

describe.each(FORMS)('$name', (form) => {
  it.each(NON_PUBLIC)('carrying %s is judged %s everywhere', async (ipv4, range, words) => {
    const address = form.build(ipv4);
    expect(blockedRange(address), address).toBe(range);

    const url = `https://[${address}]:8443/hook`;
    expect(await saveTimeRefusal(url), url).toContain(words);

    const transport = createTransport({ allowPrivateTargets: false, timeoutMs: 600 });
    try {
      const attempt = await transport.post(url, {}, '{}');
      expect(attempt, url).toMatchObject({ ok: false, status: null, latencyMs: 0 });
      expect(attempt.error, url).toMatch(/^refused: .+ is a .+ address$/);
      expect(attempt.error, url).toContain(words);
    } finally {
      await transport.close();
    }
    const lookedUp = await guardedLookupOf(address);
    expect(lookedUp, address).toMatch(/^refused: /);
    expect(lookedUp, address).toContain(words);
  });

  it.each(PUBLIC)(`carrying public %s is ${form.publicVerdict ?? 'allowed'}`, async (ipv4) => {
    const address = form.build(ipv4);
    expect(blockedRange(address), address).toBe(form.publicVerdict);
    const url = `https://[${address}]/hook`;
    const verdict = await saveTimeRefusal(url);
    if (form.publicVerdict === null) expect(verdict).toBe('accepted');
    else expect(verdict).toMatch(/^url must not point at a .+ address$/);
  });
});

describe('IPv6 outside the forms above', () => {
  it('refuses the IPv4-compatible literals of the issue at save time', async () => {
    for (const url of ['https://[::127.0.0.1]/', 'https://[::7f00:1]/']) {
      expect(await saveTimeRefusal(url), url).toContain('loopback');
    }
  });

  it('keeps :: and ::1 as unspecified and loopback, not as IPv4-compatible', () => {
    expect(blockedRange('::')).toBe('unspecified');
    expect(blockedRange('::1')).toBe('loopback');
  });

  it('refuses unicast outside 2000::/3, where no global address is allocated', () => {
    expect(blockedRange('64:ff9b:0:1::808:808')).toBe('reserved');
    expect(blockedRange('1::1')).toBe('reserved');
    expect(blockedRange('4000::1')).toBe('reserved');
    expect(blockedRange('2a00:1450:4001:80b::200e')).toBeNull();
  });
});
