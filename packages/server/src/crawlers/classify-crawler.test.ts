import { describe, expect, it } from 'vitest';
import { classifyCrawler } from './classify-crawler.js';
import { CRAWLERS } from './crawlers.data.js';

describe('crawler classification', () => {
  it.each(CRAWLERS.map((entry) => [entry.token, entry]))('knows %s', (_token, entry) => {
    const ua = `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${entry.token}/1.2; +https://example.com/bot)`;
    expect(classifyCrawler(ua)).toEqual({
      crawler: entry.name,
      operator: entry.operator,
      purpose: entry.purpose,
    });
  });

  it('covers the crawlers the issue names, each with operator and purpose', () => {
    for (const name of [
      'GPTBot',
      'OAI-SearchBot',
      'ChatGPT-User',
      'ClaudeBot',
      'Claude-User',
      'Claude-SearchBot',
      'PerplexityBot',
      'Perplexity-User',
      'Google-Extended',
      'Applebot-Extended',
      'Bytespider',
      'CCBot',
      'Amazonbot',
      'meta-externalagent',
      'Meta-ExternalFetcher',
      'cohere-ai',
      'DuckAssistBot',
      'MistralAI-User',
      'YouBot',
    ]) {
      expect(
        CRAWLERS.some((entry) => entry.name === name),
        name,
      ).toBe(true);
    }
  });

  it('tells the real agents apart and stores unknown ones as other', () => {
    expect(
      classifyCrawler('Mozilla/5.0 (compatible; ChatGPT-User/1.0; +https://openai.com/bot)').crawler,
    ).toBe('ChatGPT-User');
    expect(classifyCrawler('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)').purpose).toBe(
      'training',
    );
    expect(classifyCrawler('Mozilla/5.0 (compatible; Claude-SearchBot/1.0)').crawler).toBe(
      'Claude-SearchBot',
    );
    expect(classifyCrawler('Mozilla/5.0 (Windows NT 10.0) Chrome/131.0 Safari/537.36')).toEqual({
      crawler: 'other',
      operator: '',
      purpose: 'other',
    });
    expect(classifyCrawler('NotGPTBotAtAll').crawler).toBe('other');
    expect(classifyCrawler('gptbot/1.0').crawler).toBe('GPTBot');
  });
});
