/**
 * The SSRF address classifier and the URL rules: every blocked IPv4 and IPv6 range, IPv4
 * hidden inside IPv6 (every form: embedded-ipv4.test.ts), and the odd spellings of 127.0.0.1
 * that URL parsing normalises.
 */
import { describe, expect, it } from 'vitest';
import { blockedRange, ipLiteralOf, isBlockedAddress } from './address-policy.js';
import { checkWebhookUrl } from './webhook-url.js';

describe('address classifier', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.192', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['240.0.0.1', 'reserved'],
  ])('blocks IPv4 %s (%s)', (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fdff:ffff::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'reserved'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'teredo'],
    ['::ffff:0:808:808', 'rfc6145'],
    ['::808:808', 'ipv4Compatible'],
    ['64:ff9b:1::808:808', 'rfc6052'],
  ])('blocks IPv6 %s (%s)', (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:100.64.0.1', 'carrierGradeNat'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
  ])('judges IPv4 inside IPv6: %s is %s', (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    'lets global unicast %s through',
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );

  it('lets public IPv4 inside IPv6 through', () => {
    expect(isBlockedAddress('::ffff:8.8.8.8')).toBe(false);
    expect(isBlockedAddress('64:ff9b::808:808')).toBe(false);
  });

  it('treats anything unparsable as blocked', () => {
    expect(blockedRange('not-an-ip')).toBe('invalid');
  });

  it('finds IP literals in URL hostnames', () => {
    expect(ipLiteralOf('[::1]')).toBe('::1');
    expect(ipLiteralOf('127.0.0.1')).toBe('127.0.0.1');
    expect(ipLiteralOf('example.com')).toBeNull();
  });
});

describe('webhook URL rules', () => {
  const resolveTo = (addresses: string[]) => async () => addresses;
  const check = (url: string, resolve = resolveTo(['93.184.216.34'])) =>
    checkWebhookUrl(url, { allowPrivate: false, resolve });
  const refusal = (url: string, resolve?: () => Promise<string[]>) =>
    check(url, resolve).then(
      () => 'accepted',
      (error: { status: number; details: { field?: string }; message: string }) => {
        expect(error.status).toBe(422);
        expect(error.details.field).toBe('url');
        return error.message;
      },
    );

  it('accepts a public https URL and normalises it', async () => {
    expect(await check('HTTPS://Hooks.Example.com/in?x=1')).toBe('https://hooks.example.com/in?x=1');
  });

  it.each([
    ['http://hooks.example.com/', 'https'],
    ['ftp://hooks.example.com/', 'https'],
    ['https://user:pw@hooks.example.com/', 'credentials'],
    ['https://user@hooks.example.com/', 'credentials'],
    ['not a url', 'absolute'],
    ['https://127.0.0.1/', 'loopback'],
    ['https://2130706433/', 'loopback'],
    ['https://0177.0.0.1/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://100.64.0.1/', 'carrier-grade'],
    ['https://10.0.0.8:8443/', 'private'],
    ['https://[::1]/', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[fc00::1]/', 'unique-local'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://localhost/', 'local'],
    ['https://api.localhost/', 'local'],
    ['https://metadata.google.internal/', 'local'],
    ['https://printer.local/', 'local'],
  ])('refuses %s', async (url, word) => {
    expect(await refusal(url)).toContain(word);
  });

  it('refuses a name that resolves to a private address, even among public ones', async () => {
    expect(await refusal('https://rebind.example.com/', resolveTo(['93.184.216.34', '10.0.0.1']))).toContain(
      'resolves to a private',
    );
    expect(await refusal('https://meta.example.com/', resolveTo(['169.254.169.254']))).toContain(
      'link-local',
    );
    expect(await refusal('https://six.example.com/', resolveTo(['::ffff:127.0.0.1']))).toContain('loopback');
  });

  it('accepts a name that does not resolve yet (the delivery-time check still guards it)', async () => {
    const failing = async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    expect(await check('https://not-yet.example.com/', failing)).toBe('https://not-yet.example.com/');
  });

  it('lets private targets through only when told to (tests)', async () => {
    expect(await checkWebhookUrl('https://127.0.0.1:9/x', { allowPrivate: true })).toBe(
      'https://127.0.0.1:9/x',
    );
  });
});
