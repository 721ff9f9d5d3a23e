/** The client address a hit may carry, in the one form the server accepts. */
import { isIP } from 'node:net';

const MAPPED_PREFIX = '::ffff:';

/**
 * `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) becomes `1.2.3.4`, so the server
 * matches it against IPv4 ranges. Anything `isIP()` rejects becomes `undefined`: the server
 * refuses a whole batch over one malformed address.
 */
export function normaliseAddress(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  let address = value.trim();
  if (address.toLowerCase().startsWith(MAPPED_PREFIX) && isIP(address.slice(MAPPED_PREFIX.length)) === 4)
    address = address.slice(MAPPED_PREFIX.length);
  return isIP(address) === 0 ? undefined : address;
}
