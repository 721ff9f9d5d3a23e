/**
 * How events become visits (DESIGN.md §4): a visit ends after 30 minutes without activity, or
 * when the visitor arrives again from a different external source (another referrer host or
 * other utm_* values). Internal navigation and direct arrivals never split a visit.
 */
import type { SourceClassification } from '../sources/classify-source.js';

export const VISIT_IDLE_MS = 30 * 60 * 1000;

export interface Campaign {
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
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

export function startsNewVisit(
  open: { last_activity_at: Date; source_key: string } | undefined,
  at: Date,
  sourceKey: string,
): boolean {
  if (!open) return true;
  if (at.getTime() - open.last_activity_at.getTime() > VISIT_IDLE_MS) return true;
  return sourceKey !== '' && sourceKey !== open.source_key;
}
