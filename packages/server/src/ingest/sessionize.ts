/**
 * What a visit's source is made of (DESIGN.md §4): a visit ends after 30 minutes without
 * activity, or when the visitor arrives again from a different external source (another
 * referrer host or other utm_* values); internal navigation and direct arrivals never split a
 * visit. The database applies those rules when it builds visits (`touchtrail_ingest_visits`,
 * sql/ingest/05_visits.sql, pinned by visit-rules.test.ts); this file reads the campaign and makes
 * the source key it compares.
 */
import type { SourceClassification } from '../sources/classify-source.js';

export interface Campaign {
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
  ref: string;
}

export function campaignOf(url: string): Campaign {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    params = new URLSearchParams();
  }
  const read = (name: string) => (params.get(name) ?? '').trim().slice(0, 200);
  return {
    utm_source: read('utm_source').toLowerCase(),
    utm_medium: read('utm_medium').toLowerCase(),
    utm_campaign: read('utm_campaign'),
    utm_content: read('utm_content'),
    utm_term: read('utm_term'),
    ref: read('ref'),
  };
}

/**
 * Identifies an external source; '' for a direct arrival or internal navigation
 * (classification null), which never starts a visit on its own.
 */
export function sourceKeyOf(classification: SourceClassification | null, campaign: Campaign): string {
  if (!classification || classification.session_ai_source === 'direct') return '';
  return [
    classification.session_ai_source,
    classification.source_name,
    campaign.utm_source,
    campaign.utm_medium,
    campaign.utm_campaign,
  ].join('|');
}
