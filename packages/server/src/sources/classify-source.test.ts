import { describe, expect, it } from 'vitest';
import { type ClassifyInput, classifySource, SOURCE_NAME_MAX_CHARS } from './classify-source.js';
import { AI_ASSISTANTS, CHANNEL_SOURCES } from './sources.data.js';

const SITE = 'shop.example.com';
const PAGE = `https://${SITE}/pricing`;

function classify(referrer: string | null | undefined, url = PAGE, extra: Partial<ClassifyInput> = {}) {
  return classifySource({ referrer, url, siteDomain: SITE, ...extra });
}
const fromReferrer = (referrer: string) => classify(referrer);
const fromUtm = (source: string, more = '') =>
  classify(null, `${PAGE}?utm_source=${encodeURIComponent(source)}${more}`);
const result = (source_kind: string, session_ai_source: string, source_name: string) => ({
  source_kind,
  session_ai_source,
  source_name,
});

describe('the data table', () => {
  it('has at least 25 assistants with unique, stable labels', () => {
    const labels = AI_ASSISTANTS.map((a) => a.label);
    expect(labels.length).toBeGreaterThanOrEqual(25);
    expect(new Set(labels).size).toBe(labels.length);
    for (const label of labels) expect(label).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('lists every host, app id and utm value once, in lower case', () => {
    const groups = [...AI_ASSISTANTS, ...CHANNEL_SOURCES];
    for (const key of ['hosts', 'androidApps', 'utmSources'] as const) {
      const all = groups.flatMap((g) => g[key]);
      expect(new Set(all).size, key).toBe(all.length);
      for (const value of all) expect(value).toBe(value.trim().toLowerCase());
    }
  });

  it('keeps the hosts the interface names', () => {
    const hosts = AI_ASSISTANTS.flatMap((a) => a.hosts);
    for (const host of [
      'chatgpt.com',
      'chat.openai.com',
      'perplexity.ai',
      'claude.ai',
      'gemini.google.com',
    ]) {
      expect(hosts).toContain(host);
    }
    for (const host of [
      'copilot.microsoft.com',
      'edgeservices.bing.com',
      'chat.deepseek.com',
      'chat.mistral.ai',
    ]) {
      expect(hosts).toContain(host);
    }
    for (const host of [
      'grok.com',
      'meta.ai',
      'duck.ai',
      'you.com',
      'poe.com',
      'phind.com',
      'chat.qwen.ai',
    ]) {
      expect(hosts).toContain(host);
    }
    expect(hosts).toContain('kimi.com');
  });
});

describe('every AI assistant in the table', () => {
  const hosts = AI_ASSISTANTS.flatMap((a) => a.hosts.map((host) => [host, a.label] as const));
  const utms = AI_ASSISTANTS.flatMap((a) => a.utmSources.map((value) => [value, a.label] as const));
  const apps = AI_ASSISTANTS.flatMap((a) => a.androidApps.map((app) => [app, a.label] as const));

  it.each(hosts)('referrer host %s → %s', (host, label) => {
    expect(fromReferrer(`https://${host}/`)).toEqual(result('ai', label, host));
    expect(fromReferrer(`https://www.${host}/some/path?q=1`)).toEqual(result('ai', label, host));
  });

  it.each(hosts)('utm_source=%s (a host) → %s', (host, label) => {
    expect(fromUtm(host)).toEqual(result('ai', label, host));
  });

  it.each(utms)('utm_source=%s → %s', (value, label) => {
    expect(fromUtm(value)).toEqual(result('ai', label, value));
    expect(fromUtm(value.toUpperCase())).toEqual(result('ai', label, value));
  });

  it.each(apps)('android-app://%s → %s', (app, label) => {
    expect(fromReferrer(`android-app://${app}/`)).toEqual(result('ai', label, app));
  });
});

describe('search, social and email', () => {
  it.each([
    ['https://www.google.com/', 'search', 'google.com'],
    ['https://www.google.co.uk/', 'search', 'google.co.uk'],
    ['https://www.google.de/', 'search', 'google.de'],
    ['https://www.bing.com/search?q=x', 'search', 'bing.com'],
    ['https://duckduckgo.com/', 'search', 'duckduckgo.com'],
    ['https://search.yahoo.com/', 'search', 'search.yahoo.com'],
    ['https://yandex.kz/', 'search', 'yandex.kz'],
    ['https://www.baidu.com/', 'search', 'baidu.com'],
    ['https://www.ecosia.org/', 'search', 'ecosia.org'],
    ['https://search.brave.com/', 'search', 'search.brave.com'],
    ['https://m.search.naver.com/', 'search', 'm.search.naver.com'],
    ['https://l.facebook.com/', 'social', 'l.facebook.com'],
    ['https://lm.facebook.com/', 'social', 'lm.facebook.com'],
    ['https://m.facebook.com/', 'social', 'm.facebook.com'],
    ['https://t.co/', 'social', 't.co'],
    ['https://mobile.twitter.com/', 'social', 'mobile.twitter.com'],
    ['https://x.com/i/grok', 'social', 'x.com'],
    ['https://www.linkedin.com/', 'social', 'linkedin.com'],
    ['https://lnkd.in/', 'social', 'lnkd.in'],
    ['https://old.reddit.com/', 'social', 'old.reddit.com'],
    ['https://m.youtube.com/', 'social', 'm.youtube.com'],
    ['https://www.pinterest.fr/', 'social', 'pinterest.fr'],
    ['https://bsky.app/', 'social', 'bsky.app'],
    ['https://news.ycombinator.com/', 'social', 'news.ycombinator.com'],
    ['https://www.threads.net/', 'social', 'threads.net'],
    ['https://mail.google.com/', 'email', 'mail.google.com'],
    ['https://outlook.live.com/', 'email', 'outlook.live.com'],
    ['https://mail.yahoo.com/', 'email', 'mail.yahoo.com'],
    ['https://docs.google.com/document/d/1', 'referral', 'docs.google.com'],
    ['android-app://com.google.android.gm/', 'email', 'com.google.android.gm'],
    ['android-app://com.google.android.gm.lite', 'email', 'com.google.android.gm.lite'],
    [
      'android-app://com.google.android.googlequicksearchbox/',
      'search',
      'com.google.android.googlequicksearchbox',
    ],
    ['android-app://com.linkedin.android/', 'social', 'com.linkedin.android'],
  ])('%s → %s', (referrer, channel, name) => {
    expect(fromReferrer(referrer)).toEqual(result('non_ai', channel, name));
  });

  it.each([
    ['google', 'search'],
    ['duckduckgo', 'search'],
    ['facebook', 'social'],
    ['linkedin', 'social'],
    ['newsletter', 'email'],
    ['google.com', 'search'],
    ['mail.google.com', 'email'],
  ])('utm_source=%s without a referrer → %s', (value, channel) => {
    expect(fromUtm(value)).toEqual(result('non_ai', channel, value));
  });
});

describe('tricky cases', () => {
  it('tells Gemini from Google search, and duck.ai from DuckDuckGo', () => {
    expect(fromReferrer('https://gemini.google.com/app')).toEqual(
      result('ai', 'gemini', 'gemini.google.com'),
    );
    expect(fromReferrer('https://www.google.com/search?udm=50')).toEqual(
      result('non_ai', 'search', 'google.com'),
    );
    expect(fromReferrer('https://duck.ai/')).toEqual(result('ai', 'duck_ai', 'duck.ai'));
    expect(fromReferrer('https://duckduckgo.com/?ia=chat')).toEqual(
      result('non_ai', 'search', 'duckduckgo.com'),
    );
    expect(fromReferrer('https://edgeservices.bing.com/')).toEqual(
      result('ai', 'copilot', 'edgeservices.bing.com'),
    );
    expect(fromReferrer('https://www.bing.com/')).toEqual(result('non_ai', 'search', 'bing.com'));
  });

  it('matches subdomains but not look-alike hosts', () => {
    expect(fromReferrer('https://foo.chatgpt.com/')).toEqual(result('ai', 'chatgpt', 'foo.chatgpt.com'));
    expect(fromReferrer('https://m.perplexity.ai/')).toEqual(result('ai', 'perplexity', 'm.perplexity.ai'));
    for (const host of ['evil-chatgpt.com', 'chatgpt.com.evil.net', 'notclaude.ai', 'mygoogle.com']) {
      expect(fromReferrer(`https://${host}/`)).toEqual(result('non_ai', 'referral', host));
    }
    expect(fromReferrer('https://google.blogspot.com/')).toEqual(
      result('non_ai', 'referral', 'google.blogspot.com'),
    );
    expect(fromReferrer('https://constructor.com/')).toEqual(result('non_ai', 'referral', 'constructor.com'));
  });

  it('reads upper-case hosts, ports, trailing dots and user info', () => {
    expect(fromReferrer('HTTPS://WWW.ChatGPT.COM/')).toEqual(result('ai', 'chatgpt', 'chatgpt.com'));
    expect(fromReferrer('https://claude.ai:443/chat')).toEqual(result('ai', 'claude', 'claude.ai'));
    expect(fromReferrer('http://perplexity.ai:8080/')).toEqual(result('ai', 'perplexity', 'perplexity.ai'));
    expect(fromReferrer('https://chatgpt.com./')).toEqual(result('ai', 'chatgpt', 'chatgpt.com'));
    expect(fromReferrer('https://user:pw@Blog.Example.org:8443/a')).toEqual(
      result('non_ai', 'referral', 'blog.example.org'),
    );
  });

  it('names unknown Android apps as referrals and ignores empty ones', () => {
    expect(fromReferrer('android-app://com.example.reader/')).toEqual(
      result('non_ai', 'referral', 'com.example.reader'),
    );
    expect(fromReferrer('android-app://com.openai.chatgpt.beta')).toEqual(
      result('ai', 'chatgpt', 'com.openai.chatgpt.beta'),
    );
    expect(fromReferrer('android-app://com.openai.chatgptx')).toEqual(
      result('non_ai', 'referral', 'com.openai.chatgptx'),
    );
    expect(fromReferrer('android-app://')).toEqual(result('unknown', 'direct', ''));
  });

  it('answers direct when nothing tells', () => {
    expect(classify(null)).toEqual(result('unknown', 'direct', ''));
    expect(classify(undefined)).toEqual(result('unknown', 'direct', ''));
    expect(classify('   ')).toEqual(result('unknown', 'direct', ''));
    expect(classify(null, `${PAGE}?utm_source=&utm_medium=`)).toEqual(result('unknown', 'direct', ''));
  });

  it('never throws on malformed input, treating it as absent', () => {
    for (const referrer of [
      'not a url',
      'http://',
      '://x',
      'about:blank',
      'file:///etc/passwd',
      'javascript:1',
    ]) {
      expect(classify(referrer)).toEqual(result('unknown', 'direct', ''));
    }
    expect(classify('https://claude.ai/', 'not a url')).toEqual(result('ai', 'claude', 'claude.ai'));
    expect(classify(null, '%%%?utm_source=chatgpt.com')).toEqual(result('unknown', 'direct', ''));
    expect(classify(null, PAGE, { siteDomain: '' })).toEqual(result('unknown', 'direct', ''));
    // A broken percent-escape decodes to U+FFFD rather than failing.
    expect(classify(null, `${PAGE}?utm_source=%E0%A4%A`)).toEqual(result('non_ai', 'referral', '\uFFFD%a'));
  });
});

describe('internal navigation', () => {
  it.each([
    'https://shop.example.com/cart',
    'https://www.shop.example.com/',
    'https://SHOP.example.com:8443/',
    'https://example.com/',
    'https://www.example.com/',
    'https://blog.example.com/post',
  ])('%s is the site itself', (referrer) => {
    expect(classify(referrer)).toBeNull();
    expect(classify(referrer, `${PAGE}?utm_source=chatgpt.com`)).toBeNull();
  });

  it('uses the confirmed cookie apex when there is one', () => {
    const site = { siteDomain: 'app.acme.co.uk', cookieApexDomain: 'acme.co.uk' };
    expect(classify('https://www.acme.co.uk/', PAGE, site)).toBeNull();
    expect(
      classify('https://docs.acme.co.uk/', PAGE, { ...site, cookieApexDomain: '.acme.co.uk' }),
    ).toBeNull();
    expect(classify('https://other.co.uk/', PAGE, site)).toEqual(result('non_ai', 'referral', 'other.co.uk'));
  });

  it('does not treat neighbours on a shared suffix or a look-alike as internal', () => {
    const site = { siteDomain: 'alice.github.io' };
    expect(classify('https://alice.github.io/x', PAGE, site)).toBeNull();
    expect(classify('https://bob.github.io/', PAGE, site)).toEqual(
      result('non_ai', 'referral', 'bob.github.io'),
    );
    expect(classify('https://notexample.com/')).toEqual(result('non_ai', 'referral', 'notexample.com'));
    expect(classify('https://example.com.evil.net/')).toEqual(
      result('non_ai', 'referral', 'example.com.evil.net'),
    );
  });
});

describe('utm_source and referrer precedence', () => {
  it('an AI utm_source beats a non-AI referrer', () => {
    expect(classify('https://www.google.com/', `${PAGE}?utm_source=chatgpt.com`)).toEqual(
      result('ai', 'chatgpt', 'google.com'),
    );
    expect(classify('https://t.co/', `${PAGE}?UTM_SOURCE=Perplexity&utm_medium=cpc`)).toEqual(
      result('ai', 'perplexity', 't.co'),
    );
  });

  it('an AI referrer beats a non-AI utm_source, medium or click id', () => {
    const url = `${PAGE}?utm_source=newsletter&utm_medium=email&gclid=abc`;
    expect(classify('https://claude.ai/', url)).toEqual(result('ai', 'claude', 'claude.ai'));
  });

  it('without a referrer, the campaign names the source', () => {
    expect(fromUtm('ChatGPT.com', '&utm_medium=referral')).toEqual(result('ai', 'chatgpt', 'chatgpt.com'));
    expect(fromUtm('Spring-Launch', '&utm_medium=email')).toEqual(result('non_ai', 'email', 'spring-launch'));
    expect(fromUtm('partner-blog', '&utm_medium=social')).toEqual(result('non_ai', 'social', 'partner-blog'));
    expect(fromUtm('partner-blog')).toEqual(result('non_ai', 'referral', 'partner-blog'));
    expect(classify(null, `${PAGE}?utm_campaign=spring`)).toEqual(result('non_ai', 'referral', ''));
    expect(fromUtm('x'.repeat(1000))?.source_name).toHaveLength(SOURCE_NAME_MAX_CHARS);
  });

  it('a tagged campaign beats a known non-AI referrer, an untagged one does not', () => {
    expect(classify('https://www.google.com/', `${PAGE}?utm_source=newsletter`)).toEqual(
      result('non_ai', 'email', 'google.com'),
    );
    expect(classify('https://www.facebook.com/', `${PAGE}?utm_source=spring`)).toEqual(
      result('non_ai', 'social', 'facebook.com'),
    );
  });
});

describe('paid', () => {
  it.each(['cpc', 'PPC', 'paid', 'paid_social', 'paidsearch', 'cpm', 'display'])(
    'utm_medium=%s',
    (medium) => {
      expect(fromUtm('google', `&utm_medium=${medium}`)).toEqual(result('non_ai', 'paid', 'google'));
    },
  );

  it.each([
    ['gclid', 'google.com'],
    ['gbraid', 'google.com'],
    ['msclkid', 'bing.com'],
    ['ttclid', 'tiktok.com'],
  ])('a %s click id', (param, platform) => {
    expect(classify(null, `${PAGE}?${param}=abc123`)).toEqual(result('non_ai', 'paid', platform));
    expect(classify('https://www.google.com/', `${PAGE}?${param}=abc123`)).toEqual(
      result('non_ai', 'paid', 'google.com'),
    );
    expect(classify(null, `${PAGE}?utm_source=spring&${param}=abc`)).toEqual(
      result('non_ai', 'paid', 'spring'),
    );
  });

  it('an empty click id counts for nothing', () => {
    expect(classify(null, `${PAGE}?gclid=`)).toEqual(result('unknown', 'direct', ''));
  });

  it('fbclid tells Facebook, not a paid click: Facebook adds it to organic links too', () => {
    expect(classify(null, `${PAGE}?fbclid=IwAR0`)).toEqual(result('non_ai', 'social', 'facebook.com'));
    expect(classify('https://l.facebook.com/', `${PAGE}?fbclid=IwAR0`)).toEqual(
      result('non_ai', 'social', 'l.facebook.com'),
    );
    expect(classify('https://www.google.com/', `${PAGE}?fbclid=IwAR0`)).toEqual(
      result('non_ai', 'search', 'google.com'),
    );
    expect(classify(null, `${PAGE}?fbclid=IwAR0&utm_medium=paid_social&utm_source=fb`)).toEqual(
      result('non_ai', 'paid', 'fb'),
    );
  });
});
