/**
 * Which addresses a webhook may reach. Only global unicast is allowed: private, loopback,
 * link-local (cloud metadata at 169.254.169.254), CGNAT, multicast, unique-local, reserved and
 * documentation ranges are refused, and so is IPv6 outside 2000::/3. An IPv6 address that carries
 * an IPv4 address (EMBEDDING_FORMS) is judged by the IPv4 address inside it.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

interface EmbeddingForm {
  /** The range name reported when the form itself is refused. */
  range: string;
  prefix: [ipaddr.IPv6, number];
  /** A public IPv4 inside is allowed only in forms a host really routes. */
  isRoutable: boolean;
  /** Byte offsets of the IPv4 addresses inside, and whether each is stored XOR 0xffffffff. */
  ipv4At: { offset: number; isObfuscated: boolean }[];
}

const cidr = (text: string) => ipaddr.IPv6.parseCIDR(text);
const LAST_32_BITS = [{ offset: 12, isObfuscated: false }];

/**
 * IPv4-mapped is what a dual-stack socket connects over IPv4, and the well-known NAT64 prefix
 * is routed by the network's translator: both reach the IPv4 address inside, so they get its
 * verdict. The rest is never routed to a public IPv4 address in practice and is refused even
 * with a public one inside: IPv4-compatible (deprecated, RFC 4291), IPv4-translated (inside
 * SIIT only, RFC 6145), local-use NAT64 (RFC 8215, prefix length chosen by the operator, so the
 * last 32 bits are our best reading), 6to4 (RFC 7526 deprecated its relays) and Teredo (client
 * address obfuscated in the last 32 bits, server address in bits 32–63, RFC 4380).
 */
const EMBEDDING_FORMS: EmbeddingForm[] = [
  { range: 'ipv4Mapped', prefix: cidr('::ffff:0:0/96'), isRoutable: true, ipv4At: LAST_32_BITS },
  { range: 'rfc6145', prefix: cidr('::ffff:0:0:0/96'), isRoutable: false, ipv4At: LAST_32_BITS },
  { range: 'ipv4Compatible', prefix: cidr('::/96'), isRoutable: false, ipv4At: LAST_32_BITS },
  { range: 'nat64', prefix: cidr('64:ff9b::/96'), isRoutable: true, ipv4At: LAST_32_BITS },
  { range: 'rfc6052', prefix: cidr('64:ff9b:1::/48'), isRoutable: false, ipv4At: LAST_32_BITS },
  {
    range: '6to4',
    prefix: cidr('2002::/16'),
    isRoutable: false,
    ipv4At: [{ offset: 2, isObfuscated: false }],
  },
  {
    range: 'teredo',
    prefix: cidr('2001::/32'),
    isRoutable: false,
    ipv4At: [
      { offset: 12, isObfuscated: true },
      { offset: 4, isObfuscated: false },
    ],
  },
];

const GLOBAL_UNICAST = cidr('2000::/3');

/** The range name when `address` may not be reached, or null when it is global unicast. */
export function blockedRange(address: string): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return 'invalid';
  return parsed.kind() === 'ipv4' ? ipv4Verdict(parsed as ipaddr.IPv4) : ipv6Verdict(parsed as ipaddr.IPv6);
}

export function isBlockedAddress(address: string): boolean {
  return blockedRange(address) !== null;
}

function ipv4Verdict(v4: ipaddr.IPv4): string | null {
  const range = v4.range();
  return range === 'unicast' ? null : range;
}

function ipv6Verdict(v6: ipaddr.IPv6): string | null {
  const range = v6.range();
  // `::` and `::1` sit inside ::/96 but are IPv6's own unspecified and loopback addresses.
  if (range === 'unspecified' || range === 'loopback') return range;
  const form = EMBEDDING_FORMS.find(({ prefix }) => v6.match(prefix));
  if (form) {
    const bytes = v6.toByteArray();
    for (const { offset, isObfuscated } of form.ipv4At) {
      const octets = bytes.slice(offset, offset + 4).map((byte) => (isObfuscated ? byte ^ 0xff : byte));
      const inner = ipv4Verdict(new ipaddr.IPv4(octets));
      if (inner) return inner;
    }
    return form.isRoutable ? null : form.range;
  }
  if (range !== 'unicast') return range;
  return v6.match(GLOBAL_UNICAST) ? null : 'reserved';
}

/**
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`, but that text is how inet_ntop (and so a
 * DNS answer) prints the IPv4-compatible `::a.b.c.d`; it is read here as what it says.
 */
function parseAddress(text: string): Address | null {
  let parsed: Address;
  try {
    parsed = ipaddr.parse(text);
  } catch {
    return null;
  }
  if (parsed.kind() === 'ipv6' && /^::[^:]*\.[^:]*$/.test(text)) {
    const parts = [...(parsed as ipaddr.IPv6).parts];
    parts[5] = 0;
    return new ipaddr.IPv6(parts);
  }
  return parsed;
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
