/** Where a visit came from, in words: the assistant for AI visits, else the channel and the site. */
import type { Entry } from '../../api/goals';
import { assistantName, channelName } from '../../lib/names';

export function sourceWords(entry: Pick<Entry, 'ai_source' | 'source_kind' | 'source_name'>): string {
  if (entry.source_kind === 'ai') return assistantName(entry.ai_source);
  const channel = channelName(entry.ai_source || 'direct');
  return entry.source_name ? `${channel} · ${entry.source_name}` : channel;
}

/** The path and query of an entry URL, or the URL as stored when it does not parse. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}
