/**
 * Which addresses a webhook may reach. Only global unicast is allowed: private, loopback,
 * link-local (cloud metadata at 169.254.169.254), CGNAT, multicast, unique-local, reserved and
 * documentation ranges are refused, and an IPv4-mapped or NAT64 IPv6 address is judged by the
 * IPv4 address inside it. 6to4 and Teredo tunnels are refused outright.
 */
import ipaddr from 'ipaddr.js';

/** The range name when `address` may not be reached, or null when it is global unicast. */
export function blockedRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'invalid';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const range = v6.range();
    if (range === 'ipv4Mapped') return blockedRange(v6.toIPv4Address().toString());
    if (range === 'rfc6052' && isWellKnownNat64(v6)) return blockedRange(embeddedIpv4(v6));
    return range === 'unicast' ? null : range;
  }
  const range = (parsed as ipaddr.IPv4).range();
  return range === 'unicast' ? null : range;
}

export function isBlockedAddress(address: string): boolean {
  return blockedRange(address) !== null;
}

/** 64:ff9b::/96 carries an IPv4 address in its last 32 bits (RFC 6052). */
function isWellKnownNat64(v6: ipaddr.IPv6): boolean {
  return v6.match(ipaddr.IPv6.parse('64:ff9b::'), 96);
}

function embeddedIpv4(v6: ipaddr.IPv6): string {
  const bytes = v6.toByteArray().slice(12);
  return bytes.join('.');
}

/** The address inside a URL hostname that is an IP literal (`[::1]` included), else null. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : null;
}

/** Names that always mean this machine or a private network, whatever DNS says (RFC 6761, 6762). */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal') ||
    name.endsWith('.home.arpa')
  );
}
