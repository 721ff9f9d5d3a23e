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

/** The flag emoji of a two-letter country code. */
export const countryFlag = (code: string) =>
  /^[A-Za-z]{2}$/.test(code)
    ? String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65))
    : '';
