/**
 * Telling a real AI crawler from one that only borrows its name: the address ranges its operator
 * publishes (crawler-ranges.data.ts) are downloaded daily by a background job and kept in
 * `crawler_ip_ranges`, so every process checks against the same lists; a hit reported with an
 * address is then verified (inside the ranges), spoofed (outside) or unchecked (no address, no
 * list for that crawler, or a list too old to trust).
 */
import ipaddr from 'ipaddr.js';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { FETCH_FILE_TIMEOUT_MS, FetchFileError, fetchFile, shownUrl } from '../lib/fetch-file.js';
import { CRAWLER_RANGE_SOURCES } from './crawler-ranges.data.js';
import { readRangeLists, saveRangeList } from './crawler-ranges.store.js';

/** The lists are a few kilobytes; a larger file is not one of them. */
const MAX_LIST_BYTES = 2 * 1024 * 1024;
const MAX_PREFIXES = 20_000;
/** A list not refreshed for this long may miss an operator's new addresses: not used. */
export const RANGES_MAX_AGE_MS = 7 * DAY_MS;
/** How long a process keeps the lists it read before reading them again. */
const RELOAD_MS = 10 * MINUTE_MS;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Every CIDR prefix (or single address) in a published list, whatever its layout: operators use
 * `{"prefixes": [{"ipv4Prefix": …}]}` like Google's lists, plain arrays, or their own keys.
 */
export function parseRangeList(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new FetchFileError('the file is not JSON');
  }
  const found = new Set<string>();
  const visit = (value: unknown) => {
    if (found.size >= MAX_PREFIXES) return;
    if (typeof value === 'string') {
      const prefix = prefixOf(value.trim());
      if (prefix) found.add(prefix);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(json);
  if (found.size === 0) throw new FetchFileError('the file holds no address ranges');
  return [...found];
}

function prefixOf(value: string): string | undefined {
  try {
    if (value.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(value);
      return `${address.toString()}/${bits}`;
    }
    if (ipaddr.isValid(value)) {
      const address = ipaddr.parse(value);
      return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`;
    }
  } catch {
    // Not an address: other strings of the file (names, dates) are ignored.
  }
  return undefined;
}

export interface RangesRefresh {
  refreshed: { crawler: string; prefixes: number }[];
  failed: { crawler: string; error: string }[];
}

/**
 * Downloads every list and stores those that parse; a list that fails keeps its stored copy.
 * Never throws for one list: the report names what failed, with the URL's origin and path only.
 */
export async function refreshCrawlerRanges(deps: {
  db: Kysely<DB>;
  clock: Clock;
  sources: Readonly<Record<string, string>>;
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
}): Promise<RangesRefresh> {
  const report: RangesRefresh = { refreshed: [], failed: [] };
  for (const [crawler, url] of Object.entries(deps.sources)) {
    if (deps.signal?.aborted) break;
    try {
      const text = await fetchFile(url, {
        fetch: deps.fetch ?? globalThis.fetch,
        timeoutMs: FETCH_FILE_TIMEOUT_MS,
        maxBytes: MAX_LIST_BYTES,
        accept: 'application/json',
        signal: deps.signal,
      });
      const prefixes = parseRangeList(text);
      await saveRangeList(deps.db, {
        crawler,
        sourceUrl: shownUrl(url),
        prefixes,
        fetchedAt: deps.clock.now(),
      });
      report.refreshed.push({ crawler, prefixes: prefixes.length });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      report.failed.push({
        crawler,
        error: message.startsWith('GET ') ? message : `GET ${shownUrl(url)}: ${message}`,
      });
    }
  }
  return report;
}

/** `true` inside the crawler's published ranges, `false` outside, `null` when not checked. */
export type AddressCheck = (crawler: string, ip: string | undefined) => boolean | null;

/**
 * The stored lists as this process last read them (again after RELOAD_MS): `current()` gives
 * the check to run on a batch of hits; `refresh()` downloads the lists (the background job).
 */
export function createCrawlerRanges(deps: {
  db: Kysely<DB>;
  clock: Clock;
  sources?: Readonly<Record<string, string>>;
  fetch?: typeof globalThis.fetch;
}) {
  const { db, clock } = deps;
  let loaded: { at: number; ranges: Map<string, { fetchedAt: number; ranges: Range[] }> } | undefined;
  let loading: Promise<void> | undefined;

  async function load(): Promise<void> {
    const rows = await readRangeLists(db);
    const ranges = new Map<string, { fetchedAt: number; ranges: Range[] }>();
    for (const row of rows) {
      const list = (Array.isArray(row.prefixes) ? row.prefixes : []).flatMap((prefix): Range[] => {
        try {
          return [ipaddr.parseCIDR(prefix)];
        } catch {
          return [];
        }
      });
      ranges.set(row.crawler, { fetchedAt: new Date(row.fetched_at).getTime(), ranges: list });
    }
    loaded = { at: clock.now().getTime(), ranges };
  }

  return {
    async current(): Promise<AddressCheck> {
      if (!loaded || clock.now().getTime() - loaded.at >= RELOAD_MS) {
        loading ??= load().finally(() => {
          loading = undefined;
        });
        await loading;
      }
      const now = clock.now().getTime();
      const ranges = loaded?.ranges ?? new Map();
      return (crawler, ip) => {
        const list = ranges.get(crawler);
        if (!list || now - list.fetchedAt > RANGES_MAX_AGE_MS || !ip || !ipaddr.isValid(ip)) return null;
        // An IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d.
        const address = ipaddr.process(ip);
        return ipaddr.subnetMatch(address, { inside: list.ranges }, 'outside') === 'inside';
      };
    },

    /** Downloads the lists now; the next `current()` of this process reads them. */
    async refresh(signal?: AbortSignal): Promise<RangesRefresh> {
      const report = await refreshCrawlerRanges({
        db,
        clock,
        sources: deps.sources ?? CRAWLER_RANGE_SOURCES,
        fetch: deps.fetch,
        signal,
      });
      loaded = undefined;
      return report;
    },
  };
}

export type CrawlerRanges = ReturnType<typeof createCrawlerRanges>;
