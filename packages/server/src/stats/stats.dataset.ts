/**
 * The generated traffic of the stats correctness suite. Dataset: 14 visitors over
 * 2026-03-01..10 (the US switches to summer time on the 8th), each with 1–3 visits on different
 * days from ChatGPT, Perplexity, Google or nowhere, 1–4 pages each with whole seconds of
 * engagement, some with a custom event; plus a bounce, a long multi-page visit and a one-page
 * visit saved from bouncing by its custom event. Seeded, so every run sends the same traffic.
 */
import { newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS, SECOND_MS } from '../lib/clock.js';
import { seeded } from '../test/seeded.js';

export type Source = 'chatgpt' | 'perplexity' | 'google' | 'direct';
export interface PlannedVisit {
  visitor: string;
  start: Date;
  source: Source;
  entry: string;
  /** Engaged seconds on each page, one entry per pageview. */
  engaged: number[];
  hasCustomEvent: boolean;
}

export const REFERRERS: Record<Source, string> = {
  chatgpt: 'https://chatgpt.com/',
  perplexity: 'https://www.perplexity.ai/',
  google: 'https://www.google.com/',
  direct: '',
};
export const CHANNELS: Record<Source, string> = {
  chatgpt: 'ai',
  perplexity: 'ai',
  google: 'search',
  direct: 'direct',
};
const ENTRIES = ['/', '/pricing', '/blog/ai-analytics'];
// Late-evening and small hours UTC, so that New York buckets some visits on the day before.
const HOURS_UTC = [1, 3, 4, 10, 15, 22, 23];

export function generateVisits(): PlannedVisit[] {
  const random = seeded(20);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const visits: PlannedVisit[] = [];
  for (let v = 0; v < 14; v++) {
    const visitor = newVisitorId();
    const days = [...Array(10).keys()].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
    for (const day of days) {
      const pages = 1 + Math.floor(random() * 4);
      visits.push({
        visitor,
        start: new Date(Date.UTC(2026, 2, 1 + day, pick(HOURS_UTC), Math.floor(random() * 50))),
        source: pick(['chatgpt', 'perplexity', 'google', 'direct'] as const),
        entry: pick(ENTRIES),
        engaged: Array.from({ length: pages }, () => pick([0, 3, 12, 40])),
        hasCustomEvent: random() < 0.25,
      });
    }
  }
  const fixed = (day: number, hour: number, source: Source, engaged: number[], hasCustomEvent: boolean) =>
    visits.push({
      visitor: newVisitorId(),
      start: new Date(Date.UTC(2026, 2, day, hour, 55)),
      source,
      entry: '/',
      engaged,
      hasCustomEvent,
    });
  fixed(4, 10, 'google', [0], false); // a bounce
  fixed(5, 15, 'chatgpt', [20, 15, 5], false); // several pages, engaged
  fixed(8, 4, 'direct', [2], true); // one page, saved from bouncing by its custom event
  return visits;
}

/** Every request of the dataset, in time order. */
export function requestsOf(visits: PlannedVisit[], site: { snippet_key: string; domain: string }) {
  const requests: { at: Date; payload: Record<string, unknown> }[] = [];
  for (const visit of visits) {
    const urls = visit.engaged.map((_, i) => `https://${site.domain}${i === 0 ? visit.entry : `/page-${i}`}`);
    urls.forEach((url, i) => {
      const at = visit.start.getTime() + i * MINUTE_MS;
      const ref = i === 0 ? REFERRERS[visit.source] : (urls[i - 1] as string);
      requests.push({ at: new Date(at), payload: pageview(site.snippet_key, visit.visitor, url, ref) });
      const engagedMs = (visit.engaged[i] as number) * SECOND_MS;
      if (engagedMs > 0) {
        const payload = {
          type: 'engagement',
          site: site.snippet_key,
          vid: visit.visitor,
          url,
          engaged_ms: engagedMs,
        };
        requests.push({ at: new Date(at + 50 * SECOND_MS), payload });
      }
    });
    if (visit.hasCustomEvent) {
      const payload = {
        type: 'event',
        site: site.snippet_key,
        vid: visit.visitor,
        url: urls[0],
        name: 'signup',
      };
      requests.push({ at: new Date(visit.start.getTime() + 30 * SECOND_MS), payload });
    }
  }
  return requests.sort((a, b) => a.at.getTime() - b.at.getTime());
}
