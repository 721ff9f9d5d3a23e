/**
 * Where an imported visit came from, by the same rules as live traffic (sources/): the referrer
 * and campaign tags go through `classifySource`, so a year of exported ChatGPT referrers counts in
 * the AI channel. Exports repeat a few thousand referrer and tag combinations, so results are kept.
 */
import { type Campaign, sourceKeyOf } from '../ingest/sessionize.js';
import { classifySource } from '../sources/classify-source.js';
import type { Utm } from './import-records.js';

export interface ImportedSource {
  source_key: string;
  source_kind: string;
  session_ai_source: string;
  source_name: string;
}

const CACHED = 20_000;

/** A classifier for one site's import, with its own cache. */
export function createSourceClassifier(siteDomain: string) {
  const cache = new Map<string, ImportedSource | null>();
  return (referrer: string, utm: Utm): ImportedSource | null => {
    const key = [referrer, utm.utm_source, utm.utm_medium, utm.utm_campaign].join('\n');
    const known = cache.get(key);
    if (known !== undefined) return known;
    const url = new URL(`https://${siteDomain}/`);
    for (const [name, value] of Object.entries(utm)) if (value) url.searchParams.set(name, value);
    const classification = classifySource({ referrer: referrerUrl(referrer), url: url.href, siteDomain });
    const campaign: Campaign = { ...utm, ref: '' };
    const source = classification && {
      ...classification,
      source_key: sourceKeyOf(classification, campaign),
    };
    if (cache.size >= CACHED) cache.clear();
    cache.set(key, source);
    return source;
  };
}

/** Exports keep a referrer as a host (`chatgpt.com`), a host and path, or a whole URL. */
function referrerUrl(referrer: string): string | null {
  const trimmed = referrer.trim();
  if (!trimmed) return null;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/** The channel dimension's value, as reporting/visit-columns.sql.ts reads it from a visit. */
export const channelOf = (source: Pick<ImportedSource, 'source_kind' | 'session_ai_source'>) =>
  source.source_kind === 'ai' ? 'ai' : source.session_ai_source;
