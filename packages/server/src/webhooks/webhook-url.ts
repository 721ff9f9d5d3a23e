/**
 * The rules an endpoint URL must meet on create and update: `https://`, no user-info, a well
 * formed host, and no host that is, names or resolves to an address outside global unicast
 * (address-policy.ts); a name must end in a public suffix. This check at save time is a
 * courtesy to the user; the guard that matters runs again in the connection's own DNS lookup at
 * every delivery (webhook-transport.ts), since DNS can change.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { parse as parseDomain } from 'tldts';
import { badInput } from '../http/errors.js';
import { blockedRange, ipLiteralOf, isLocalName } from './address-policy.js';

export const MAX_URL_LENGTH = 2048;

export type ResolveAll = (hostname: string) => Promise<string[]>;

const resolveWithSystem: ResolveAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface UrlCheckOptions {
  /** Test-only (WEBHOOK_ALLOW_PRIVATE_TARGETS): lets loopback and private targets through. */
  allowPrivate: boolean;
  resolve?: ResolveAll;
}

const invalid = (message: string) => badInput('url', `url ${message}`);

/** The normalised URL, or a 422 naming `url`. A name that does not resolve yet is accepted. */
export async function checkWebhookUrl(raw: string, options: UrlCheckOptions): Promise<string> {
  if (raw.length > MAX_URL_LENGTH) throw invalid(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('must be an absolute https:// URL');
  }
  if (url.protocol !== 'https:') throw invalid('must use https://');
  if (url.username || url.password) throw invalid('must not contain credentials (user-info)');
  if (!url.hostname) throw invalid('must name a host');
  const literal = ipLiteralOf(url.hostname);
  if (!literal && hasEmptyLabel(url.hostname)) {
    throw invalid('host is malformed: an empty label or a trailing dot');
  }
  if (options.allowPrivate) return url.href;

  if (literal) {
    const range = blockedRange(literal);
    if (range) throw invalid(`must not point at a ${describeRange(range)} address`);
    return url.href;
  }
  if (isLocalName(url.hostname)) throw invalid('must not name a local or internal host');
  if (!hasPublicSuffix(url.hostname)) {
    throw invalid('host must be a name under a public domain suffix (such as .com or .co.uk)');
  }
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? resolveWithSystem)(url.hostname);
  } catch {
    return url.href;
  }
  for (const address of addresses) {
    const range = blockedRange(address);
    if (range) throw invalid(`host resolves to a ${describeRange(range)} address`);
  }
  return url.href;
}

/** `vm.`, `localhost..`, `a..example.com`, `.example.com`: never what a public name looks like. */
const hasEmptyLabel = (hostname: string) => hostname.split('.').includes('');

/**
 * A single label (`vm`), a reserved or unknown top-level domain (`.test`, `.example`, `.corp`)
 * or a bare suffix (`co.uk`) cannot be a public host. Read against the ICANN section of the
 * Public Suffix List only, so `herokuapp.com` (a private-section suffix) stays a valid host.
 */
function hasPublicSuffix(hostname: string): boolean {
  const { domain, isIcann } = parseDomain(hostname, { allowPrivateDomains: false });
  return domain !== null && isIcann === true;
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local (or cloud metadata)',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  ipv4Compatible: 'deprecated IPv4-compatible IPv6',
  rfc6145: 'IPv4-translated IPv6',
  rfc6052: 'local-use NAT64',
  '6to4': '6to4 tunnel',
  teredo: 'Teredo tunnel',
};

export function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `non-public (${range})`;
}
