/** Words for the values reports hold: channel codes, assistant labels, country codes. */
const CHANNELS: Record<string, string> = {
  ai: 'AI assistants',
  search: 'Search',
  social: 'Social',
  email: 'Email',
  paid: 'Paid',
  referral: 'Referral',
  direct: 'Direct',
};
export const channelName = (code: string) => CHANNELS[code] ?? code;

/**
 * A credited source of the revenue reports: an assistant's label (`chatgpt`) or a channel
 * (`search`, `direct`, …); empty when no visit matched.
 */
export function creditedSource(source: string): { name: string; ai: boolean } {
  if (source === '') return { name: 'No visit matched', ai: false };
  if (source in CHANNELS && source !== 'ai') return { name: CHANNELS[source] as string, ai: false };
  return { name: assistantName(source), ai: true };
}

// Assistant labels are lower-case ids (`chatgpt`, `meta_ai`); these are the ones whose names
// are not the id with capitals.
const ASSISTANTS: Record<string, string> = {
  chatgpt: 'ChatGPT',
  deepseek: 'DeepSeek',
  meta_ai: 'Meta AI',
  duck_ai: 'Duck.ai',
  you: 'You.com',
  character_ai: 'Character.AI',
  chatglm: 'ChatGLM',
  gigachat: 'GigaChat',
  iask: 'iAsk',
  t3_chat: 'T3 Chat',
};
export const assistantName = (label: string) =>
  ASSISTANTS[label] ?? label.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

let regions: Intl.DisplayNames | undefined;
export function countryName(code: string): string {
  regions ??= new Intl.DisplayNames(['en'], { type: 'region' });
  try {
    return regions.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** `desktop` → `Desktop`. */
export const capitalized = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
