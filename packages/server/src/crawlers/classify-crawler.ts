/** Which AI crawler a user agent belongs to, from the table in crawlers.data.ts. */
import { CRAWLERS, type CrawlerPurpose } from './crawlers.data.js';

export interface CrawlerIdentity {
  /** The crawler's name, or `other` for an agent the table does not know. */
  crawler: string;
  operator: string;
  purpose: CrawlerPurpose | 'other';
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const MATCHERS = CRAWLERS.map((entry) => ({
  entry,
  pattern: new RegExp(`(^|[^A-Za-z0-9-])${escapeRegExp(entry.token)}($|[^A-Za-z0-9-])`, 'i'),
}));

export function classifyCrawler(userAgent: string): CrawlerIdentity {
  for (const { entry, pattern } of MATCHERS) {
    if (pattern.test(userAgent))
      return { crawler: entry.name, operator: entry.operator, purpose: entry.purpose };
  }
  return { crawler: 'other', operator: '', purpose: 'other' };
}
