/**
 * AI crawlers by the token their user agent carries, with who runs them and what for.
 * Facts (names, operators, functions) come from the MIT-licensed `robots.json` of the
 * ai-robots-txt/ai.robots.txt project and the operators' own crawler pages; the wording and
 * the purpose grouping are ours.
 *
 * Purposes: `training` collects pages to train models; `search` indexes pages for an AI
 * search or answer engine; `user` fetches a page right now because a person asked an
 * assistant (the visit an assistant may send afterwards is counted by the visit classifier).
 */
export type CrawlerPurpose = 'training' | 'search' | 'user';

export interface CrawlerEntry {
  /** Case-insensitive token looked for in the user agent, on word boundaries. */
  token: string;
  name: string;
  operator: string;
  purpose: CrawlerPurpose;
}

/** Operators whose assistants the visit classifier recognises, with those assistant labels. */
export const OPERATOR_ASSISTANTS: Record<string, readonly string[]> = {
  OpenAI: ['chatgpt'],
  Anthropic: ['claude'],
  Perplexity: ['perplexity'],
  Google: ['gemini'],
  Microsoft: ['copilot'],
  Meta: ['meta_ai'],
  DuckDuckGo: ['duck_ai'],
  'Mistral AI': ['mistral'],
  'You.com': ['you'],
  xAI: ['grok'],
  DeepSeek: ['deepseek'],
};

// More specific tokens first: `ChatGPT-User` must win over a looser match.
export const CRAWLERS: readonly CrawlerEntry[] = [
  { token: 'GPTBot', name: 'GPTBot', operator: 'OpenAI', purpose: 'training' },
  { token: 'OAI-SearchBot', name: 'OAI-SearchBot', operator: 'OpenAI', purpose: 'search' },
  { token: 'ChatGPT-User', name: 'ChatGPT-User', operator: 'OpenAI', purpose: 'user' },
  { token: 'ChatGPT Agent', name: 'ChatGPT Agent', operator: 'OpenAI', purpose: 'user' },
  { token: 'ClaudeBot', name: 'ClaudeBot', operator: 'Anthropic', purpose: 'training' },
  { token: 'anthropic-ai', name: 'anthropic-ai', operator: 'Anthropic', purpose: 'training' },
  { token: 'Claude-User', name: 'Claude-User', operator: 'Anthropic', purpose: 'user' },
  { token: 'Claude-SearchBot', name: 'Claude-SearchBot', operator: 'Anthropic', purpose: 'search' },
  { token: 'Claude-Web', name: 'Claude-Web', operator: 'Anthropic', purpose: 'user' },
  { token: 'PerplexityBot', name: 'PerplexityBot', operator: 'Perplexity', purpose: 'search' },
  { token: 'Perplexity-User', name: 'Perplexity-User', operator: 'Perplexity', purpose: 'user' },
  { token: 'Google-Extended', name: 'Google-Extended', operator: 'Google', purpose: 'training' },
  { token: 'Google-CloudVertexBot', name: 'Google-CloudVertexBot', operator: 'Google', purpose: 'training' },
  { token: 'Gemini-Deep-Research', name: 'Gemini-Deep-Research', operator: 'Google', purpose: 'user' },
  { token: 'Applebot-Extended', name: 'Applebot-Extended', operator: 'Apple', purpose: 'training' },
  { token: 'Bytespider', name: 'Bytespider', operator: 'ByteDance', purpose: 'training' },
  { token: 'CCBot', name: 'CCBot', operator: 'Common Crawl', purpose: 'training' },
  { token: 'Amazonbot', name: 'Amazonbot', operator: 'Amazon', purpose: 'search' },
  { token: 'Amzn-User', name: 'Amzn-User', operator: 'Amazon', purpose: 'user' },
  { token: 'meta-externalagent', name: 'meta-externalagent', operator: 'Meta', purpose: 'training' },
  { token: 'Meta-ExternalFetcher', name: 'Meta-ExternalFetcher', operator: 'Meta', purpose: 'user' },
  { token: 'FacebookBot', name: 'FacebookBot', operator: 'Meta', purpose: 'training' },
  {
    token: 'cohere-training-data-crawler',
    name: 'cohere-training-data-crawler',
    operator: 'Cohere',
    purpose: 'training',
  },
  { token: 'cohere-ai', name: 'cohere-ai', operator: 'Cohere', purpose: 'user' },
  { token: 'DuckAssistBot', name: 'DuckAssistBot', operator: 'DuckDuckGo', purpose: 'user' },
  { token: 'MistralAI-User', name: 'MistralAI-User', operator: 'Mistral AI', purpose: 'user' },
  { token: 'YouBot', name: 'YouBot', operator: 'You.com', purpose: 'search' },
  { token: 'Diffbot', name: 'Diffbot', operator: 'Diffbot', purpose: 'training' },
  { token: 'AI2Bot', name: 'AI2Bot', operator: 'Ai2', purpose: 'training' },
  { token: 'Timpibot', name: 'Timpibot', operator: 'Timpi', purpose: 'training' },
  { token: 'omgili', name: 'omgili', operator: 'Webz.io', purpose: 'training' },
  { token: 'PetalBot', name: 'PetalBot', operator: 'Huawei', purpose: 'search' },
  { token: 'Andibot', name: 'Andibot', operator: 'Andi', purpose: 'search' },
  { token: 'PhindBot', name: 'PhindBot', operator: 'Phind', purpose: 'search' },
  { token: 'Kangaroo Bot', name: 'Kangaroo Bot', operator: 'Kangaroo LLM', purpose: 'training' },
];
