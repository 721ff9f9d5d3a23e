/**
 * Where crawler operators publish the addresses their crawlers fetch from, by crawler name (as in
 * crawlers.data.ts). Each URL is the list the operator names on its own crawler documentation:
 * OpenAI (developers.openai.com, "Overview of OpenAI crawlers"), Perplexity (docs.perplexity.ai,
 * "Perplexity crawlers"), Mistral AI (docs.mistral.ai/robots) and DuckDuckGo (its DuckAssistBot
 * help page). The lists change every few weeks, so the server downloads them
 * (crawler-ranges.ts) instead of keeping a copy here. Crawlers of operators that publish no list
 * (Anthropic, Meta, ByteDance and the rest) are never flagged.
 */
export const CRAWLER_RANGE_SOURCES: Readonly<Record<string, string>> = {
  GPTBot: 'https://openai.com/gptbot.json',
  'OAI-SearchBot': 'https://openai.com/searchbot.json',
  'ChatGPT-User': 'https://openai.com/chatgpt-user.json',
  PerplexityBot: 'https://www.perplexity.com/perplexitybot.json',
  'Perplexity-User': 'https://www.perplexity.com/perplexity-user.json',
  'MistralAI-User': 'https://mistral.ai/mistralai-user-ips.json',
  DuckAssistBot: 'https://duckduckgo.com/duckassistbot.json',
};
