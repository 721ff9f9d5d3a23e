/**
 * A DNS lookup for outbound webhook connections that refuses non-public addresses. It is handed
 * to the socket itself (undici `connect.lookup` → `net.connect`), so the address that passed
 * the check is the address connected to: a name re-pointed at 127.0.0.1 between the check and
 * the connection (DNS rebinding) has nothing to slip through. IP-literal hosts never reach a
 * lookup and are checked before the request instead (webhook-transport.ts).
 */
import { type LookupAddress, type LookupAllOptions, lookup as systemLookup } from 'node:dns';
import { blockedRange } from './address-policy.js';
import { describeRange } from './webhook-url.js';

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(host: string, address: string, range: string) {
    super(`refused: ${host} resolves to ${address}, a ${describeRange(range)} address`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for `net.connect`; with `allowPrivate` (tests only) it filters nothing. */
export function createGuardedLookup(allowPrivate: boolean) {
  return function guardedLookup(hostname: string, options: object | number, callback: LookupCallback) {
    const base = typeof options === 'number' ? { family: options } : (options as { all?: boolean });
    const wantsAll = (base as { all?: boolean }).all === true;
    const query: LookupAllOptions = { ...(base as object), all: true };
    systemLookup(hostname, query, (error, addresses) => {
      if (error) return callback(error, wantsAll ? [] : '');
      if (!allowPrivate) {
        for (const entry of addresses) {
          const range = blockedRange(entry.address);
          if (range) return callback(new BlockedAddressError(hostname, entry.address, range), '');
        }
      }
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (wantsAll) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}
