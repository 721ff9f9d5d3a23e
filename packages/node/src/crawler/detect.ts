/**
 * Which requests are worth reporting: user agents carrying a known AI crawler token. The
 * server classifies each hit again against its own table (operator and purpose); this list
 * only keeps ordinary visitors' requests from leaving the process. A server test checks it
 * matches every crawler the server knows.
 */
const AI_CRAWLER_TOKENS = [
  'gptbot',
  'oai-searchbot',
  'chatgpt-user',
  'chatgpt agent',
  'claudebot',
  'claude-user',
  'claude-searchbot',
  'claude-web',
  'anthropic-ai',
  'perplexitybot',
  'perplexity-user',
  'google-extended',
  'google-cloudvertexbot',
  'gemini-deep-research',
  'applebot-extended',
  'bytespider',
  'ccbot',
  'amazonbot',
  'amzn-user',
  'meta-externalagent',
  'meta-externalfetcher',
  'facebookbot',
  'cohere-ai',
  'cohere-training-data-crawler',
  'duckassistbot',
  'mistralai-user',
  'youbot',
  'diffbot',
  'ai2bot',
  'timpibot',
  'omgili',
  'petalbot',
  'andibot',
  'phindbot',
  'kangaroo bot',
];

export function isAiCrawler(userAgent: string | undefined | null): boolean {
  if (!userAgent) return false;
  const lower = userAgent.toLowerCase();
  return AI_CRAWLER_TOKENS.some((token) => lower.includes(token));
}
