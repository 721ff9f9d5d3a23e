/**
 * Decides where a visit came from — an AI assistant, search, social, email, paid, another site,
 * or nothing at all — from its referrer and its landing URL. Pure and synchronous; the facts
 * live in sources.data.ts.
 *
 * Order of evidence, first match wins:
 *  1. a referrer that is the site itself: internal navigation, `null` (even with utm tags);
 *  2. an AI referrer (host or Android app), then an AI `utm_source` — so each beats the other
 *     side's non-AI signal, and an AI source is AI even when the link was an ad;
 *  3. paid: a paid `utm_medium` (cpc, ppc, paid…) or an ad click id (gclid, msclkid…);
 *  4. the campaign as tagged: a channel-naming `utm_medium`, then a known `utm_source`;
 *  5. a known referrer; then an organic click id (fbclid) standing in for a missing referrer;
 *  6. any other referrer or campaign: `referral`; nothing: `unknown` / `direct`.
 * Google's AI Overviews and AI Mode send the same origin-only `google.*` referrer as its plain
 * results (browsers strip path and query from cross-origin referrers, so `udm=50` never
 * arrives), and the `#:~:text=` fragment its links carry is hidden from page scripts: they are
 * counted as `search`. Likewise duck.ai is AI but a DuckDuckGo chat on duckduckgo.com is search.
 */
import { parse } from 'tldts';
import {
  AI_ASSISTANTS,
  ANY_SUFFIX_BRANDS,
  CHANNEL_SOURCES,
  MEDIUM_CHANNELS,
  ORGANIC_CLICK_IDS,
  PAID_CLICK_IDS,
  PAID_MEDIUM_PREFIXES,
  PAID_MEDIUMS,
} from './sources.data.js';

export type SourceKind = 'ai' | 'non_ai' | 'unknown';
export interface SourceClassification {
  /** `ai` for a recognised AI assistant, `non_ai` for any other known or unknown external origin, `unknown` when nothing tells. */
  source_kind: SourceKind;
  /** Assistant label (`chatgpt`, `perplexity`, …) or channel (`search`, `social`, `email`, `referral`, `paid`, `direct`). */
  session_ai_source: string;
  /** The referring host (lower-case, no `www.`), or for an android-app referrer the app id; '' when none. */
  source_name: string;
}
export interface ClassifyInput {
  /** The document.referrer as sent by the browser, or null/''. */
  referrer: string | null | undefined;
  /** The full page URL, with its query string (utm_source, utm_medium, gclid…). */
  url: string;
  /** The site's domain (host only, lower-case) and its confirmed cookie apex, to tell internal navigation. */
  siteDomain: string;
  cookieApexDomain?: string | null;
}

/** Longest source name kept: a DNS name's limit, so a pasted essay in utm_source stays bounded. */
export const SOURCE_NAME_MAX_CHARS = 253;

interface Entry {
  kind: 'ai' | 'non_ai';
  label: string;
}

const hostTable = new Map<string, Entry>();
const appTable = new Map<string, Entry>();
const utmTable = new Map<string, Entry>();
const groups = [
  ...AI_ASSISTANTS.map((group) => ({ group, entry: { kind: 'ai', label: group.label } as const })),
  ...CHANNEL_SOURCES.map((group) => ({ group, entry: { kind: 'non_ai', label: group.channel } as const })),
];
for (const { group, entry } of groups) {
  const { hosts, androidApps, utmSources } = group;
  for (const host of hosts) hostTable.set(host, entry);
  for (const app of androidApps) appTable.set(app, entry);
  for (const value of utmSources) utmTable.set(value, entry);
}
// Maps, not the records themselves: `constructor` or `__proto__` must not look like a brand.
const brands = new Map(Object.entries(ANY_SUFFIX_BRANDS));
const mediumChannels = new Map(Object.entries(MEDIUM_CHANNELS));

type Referrer = { type: 'none' } | { type: 'app' | 'web'; name: string };
const NO_REFERRER: Referrer = { type: 'none' };

/** null when the referrer is the site itself (same host, its apex or a subdomain of the apex, www. variants): internal navigation, not a new source. */
export function classifySource(input: ClassifyInput): SourceClassification | null {
  const referrer = parseReferrer(input.referrer);
  if (referrer.type === 'web' && isInternal(referrer.name, input)) return null;
  const params = readParams(input.url);
  const utmSource = params.get('utm_source')?.trim().toLowerCase() ?? '';
  const medium = params.get('utm_medium')?.trim().toLowerCase() ?? '';
  const paidClick = PAID_CLICK_IDS.find(({ param }) => params.get(param));
  const organicClick = ORGANIC_CLICK_IDS.find(({ param }) => params.get(param));

  const refName = referrer.type === 'none' ? '' : referrer.name;
  const stand = (fallback = '') => (refName || utmSource || fallback).slice(0, SOURCE_NAME_MAX_CHARS);
  const result = (kind: SourceKind, label: string, name = stand()) => ({
    source_kind: kind,
    session_ai_source: label,
    source_name: name,
  });

  const refEntry = referrer.type === 'app' ? lookupApp(referrer.name) : lookupHost(refName);
  const utmEntry = utmSource ? lookupUtm(utmSource) : undefined;
  if (refEntry?.kind === 'ai') return result('ai', refEntry.label);
  if (utmEntry?.kind === 'ai') return result('ai', utmEntry.label);
  if (isPaidMedium(medium) || paidClick) return result('non_ai', 'paid', stand(paidClick?.platform));
  const tagged = mediumChannels.get(medium) ?? utmEntry?.label;
  if (tagged) return result('non_ai', tagged);
  if (refEntry) return result('non_ai', refEntry.label);
  if (organicClick && referrer.type === 'none') {
    return result('non_ai', organicClick.channel, stand(organicClick.platform));
  }
  const hasCampaign = [...params].some(([key, value]) => key.startsWith('utm_') && value.trim());
  if (referrer.type !== 'none' || hasCampaign) return result('non_ai', 'referral');
  return result('unknown', 'direct', '');
}

/** `android-app://<id>` keeps the app id; http(s) keeps the host; anything else counts as none. */
function parseReferrer(raw: string | null | undefined): Referrer {
  const text = raw?.trim();
  if (!text) return NO_REFERRER;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return NO_REFERRER;
  }
  if (url.protocol === 'android-app:') {
    const id = url.hostname.toLowerCase();
    return id ? { type: 'app', name: id } : NO_REFERRER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return NO_REFERRER;
  const host = stripWww(normaliseHost(url.hostname));
  return host ? { type: 'web', name: host } : NO_REFERRER;
}

/**
 * Same site: the site's host, or the cookie apex and its subdomains. Without a confirmed apex
 * the site's registrable domain stands in (private suffixes such as github.io respected, so
 * `alice.github.io` is not internal to `bob.github.io`).
 */
function isInternal(host: string, input: ClassifyInput): boolean {
  const site = stripWww(normaliseHost(input.siteDomain));
  if (!site) return false;
  if (host === site) return true;
  const apex =
    normaliseHost(input.cookieApexDomain ?? '') || parse(site, { allowPrivateDomains: true }).domain;
  return !!apex && (host === apex || host.endsWith(`.${apex}`));
}

/** The most specific table host that equals the host or one of its parent domains. */
function lookupHost(host: string): Entry | undefined {
  if (!host) return undefined;
  for (let candidate = host; ; ) {
    const entry = hostTable.get(candidate);
    if (entry) return entry;
    const dot = candidate.indexOf('.');
    if (dot < 0) break;
    candidate = candidate.slice(dot + 1);
  }
  // ICANN suffixes only: `google.blogspot.com` is somebody's blog, not Google.
  const brand = parse(host, { allowPrivateDomains: false }).domainWithoutSuffix;
  const channel = brand ? brands.get(brand) : undefined;
  return channel ? { kind: 'non_ai', label: channel } : undefined;
}

/** App ids are reverse-DNS: `a.b` covers `a.b.c`, never `a.bc`. */
function lookupApp(id: string): Entry | undefined {
  for (let candidate = id; ; ) {
    const entry = appTable.get(candidate);
    if (entry) return entry;
    const dot = candidate.lastIndexOf('.');
    if (dot < 0) return undefined;
    candidate = candidate.slice(0, dot);
  }
}

function lookupUtm(value: string): Entry | undefined {
  return (
    utmTable.get(value) ?? (value.includes('.') ? lookupHost(stripWww(normaliseHost(value))) : undefined)
  );
}

function isPaidMedium(medium: string): boolean {
  return PAID_MEDIUMS.includes(medium) || PAID_MEDIUM_PREFIXES.some((prefix) => medium.startsWith(prefix));
}

/** The page URL's query, keys lower-cased, first value kept; a malformed URL has none. */
function readParams(url: string): Map<string, string> {
  const params = new Map<string, string>();
  let search: URLSearchParams;
  try {
    search = new URL(url).searchParams;
  } catch {
    return params;
  }
  for (const [key, value] of search) {
    const lower = key.toLowerCase();
    if (!params.has(lower)) params.set(lower, value);
  }
  return params;
}

function normaliseHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\.+|\.+$/g, '');
}

function stripWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}
