/**
 * Hostname rules for sites: what a site's `domain` may be, its suggested cookie apex, and which
 * cookie apex domains are acceptable. Pure functions, no I/O. Internationalised names are kept in
 * their ASCII (punycode) form, which is what browsers send and compare.
 *
 * The Public Suffix List is read with its private section (github.io, herokuapp.com, …): browsers
 * refuse cookies scoped to those suffixes too, so suggesting one would silently break tracking.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';

const PSL_OPTIONS = { allowPrivateDomains: true } as const;
const MAX_HOSTNAME_LENGTH = 253;
const LABEL_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export type HostnameResult = { hostname: string } | { problem: string };

/** Why `raw` is not a bare hostname, in words fit for a 422 message, or its normalised form. */
export function parseHostname(raw: string): HostnameResult {
  if (raw.length === 0) return { problem: 'must not be empty' };
  if (/\s/u.test(raw)) return { problem: 'must not contain spaces' };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw))
    return { problem: 'must be a hostname without a scheme (no https://)' };
  if (raw.includes('@')) return { problem: 'must not contain credentials' };
  if (/[/?#\\]/.test(raw)) return { problem: 'must be a hostname without a path, query or fragment' };
  const bracketed = /^\[([^\]]+)\]$/.exec(raw);
  if (bracketed?.[1] && isIPv6(bracketed[1])) {
    return { hostname: new URL(`http://${raw}`).hostname };
  }
  if (raw.includes(':')) return { problem: 'must not contain a port' };
  if (isIPv4(raw)) return { hostname: raw };
  if (raw.endsWith('.')) return { problem: 'must not end with a dot' };
  const ascii = domainToASCII(raw.toLowerCase());
  if (ascii === '' || ascii.length > MAX_HOSTNAME_LENGTH) return { problem: 'must be a valid hostname' };
  const labels = ascii.split('.');
  // A numeric last label makes the WHATWG parser read the name as an IPv4 address (`1.2.3`).
  if (
    !labels.every((label) => LABEL_PATTERN.test(label)) ||
    /^(\d+|0x[0-9a-f]*)$/.test(labels.at(-1) ?? '')
  ) {
    return { problem: 'must be a valid hostname' };
  }
  return { hostname: ascii };
}

function isIpLiteral(hostname: string): boolean {
  return isIPv4(hostname) || hostname.startsWith('[');
}

/** The registrable domain of `hostname`; null for localhost, IP addresses and bare suffixes. */
export function suggestCookieApex(hostname: string): string | null {
  if (isIpLiteral(hostname)) return null;
  return getDomain(hostname, PSL_OPTIONS);
}

/**
 * Why `apex` cannot scope the identity cookies of a site on `domain`, or null when it can: it
 * must be the domain or a parent of it, and be a registrable domain or below (never a public
 * suffix). Both arguments are normalised hostnames.
 */
export function cookieApexProblem(domain: string, apex: string): string | null {
  const isSelfOrParent = apex === domain || domain.endsWith(`.${apex}`);
  if (!isSelfOrParent) return "must be the site's domain or a parent domain of it";
  if (isIpLiteral(apex) || getDomain(apex, PSL_OPTIONS) === null) {
    return 'must be a registrable domain or below it, never a public suffix';
  }
  return null;
}

/** Whether a typed confirmation names `domain`: case-insensitive, and the Unicode form counts. */
export function confirmsDomain(domain: string, typed: string): boolean {
  const normalised = typed.trim().toLowerCase();
  if (normalised === domain) return true;
  const parsed = parseHostname(normalised);
  return 'hostname' in parsed && parsed.hostname === domain;
}
