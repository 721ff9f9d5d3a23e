/**
 * The shape of the generated traffic: page paths, where visits come from, who visits (country,
 * city, device, OS, browser) and what they do. Weights are relative; each table is picked from
 * with one deterministic number per row (see seed-sql.mjs), so a visit's fields always agree.
 */

/** A few hundred paths, ranked: the seed picks them Zipf-like, so the first few dominate. */
export const PAGE_PATHS = [
  '/',
  '/pricing',
  '/blog',
  '/features',
  '/signup',
  '/docs',
  '/about',
  '/login',
  '/blog/ai-search-traffic',
  '/integrations',
  '/changelog',
  '/contact',
  '/docs/getting-started',
  '/features/ai-channel',
  '/customers',
  '/security',
  '/docs/api',
  '/blog/privacy-first-analytics',
  '/compare/google-analytics',
  '/signup/team',
  ...Array.from({ length: 120 }, (_, i) => `/blog/post-${i + 1}`),
  ...Array.from({ length: 100 }, (_, i) => `/docs/guide-${i + 1}`),
  ...Array.from({ length: 40 }, (_, i) => `/integrations/tool-${i + 1}`),
  ...Array.from({ length: 20 }, (_, i) => `/customers/story-${i + 1}`),
];

/**
 * Where a visit came from, as ingest stores it (sources/classify-source.ts): source kind, the
 * channel or assistant label, the source name, and the campaign read from the landing URL's
 * query. Shares: direct 35%, search 35%, social 10%, referral 8%, AI 7%, email 3%, paid 2%.
 */
const source = (kind, label, name, weight, query = {}) => ({ kind, label, name, weight, query });
export const SOURCES = [
  source('unknown', 'direct', '', 35),
  source('non_ai', 'search', 'google.com', 28),
  source('non_ai', 'search', 'bing.com', 3.5),
  source('non_ai', 'search', 'duckduckgo.com', 2),
  source('non_ai', 'search', 'ecosia.org', 0.8),
  source('non_ai', 'search', 'yahoo.com', 0.7),
  source('non_ai', 'social', 'reddit.com', 2.5),
  source('non_ai', 'social', 'linkedin.com', 1.2),
  source('non_ai', 'social', 'linkedin.com', 0.8, {
    utm_source: 'linkedin',
    utm_medium: 'social',
    utm_campaign: 'launch',
    utm_content: 'post-2',
  }),
  source('non_ai', 'social', 'news.ycombinator.com', 2),
  source('non_ai', 'social', 'x.com', 1.5),
  source('non_ai', 'social', 'youtube.com', 1.2),
  source('non_ai', 'social', 'facebook.com', 0.8),
  source('non_ai', 'referral', 'alternativeto.net', 2),
  source('non_ai', 'referral', 'g2.com', 1.5),
  source('non_ai', 'referral', 'indiehackers.com', 1.2),
  source('non_ai', 'referral', 'github.com', 1.5),
  source('non_ai', 'referral', 'blog.acme.io', 1, { ref: 'acme' }),
  source('non_ai', 'referral', 'docs.google.com', 0.8),
  source('ai', 'chatgpt', 'chatgpt.com', 2.1),
  source('ai', 'chatgpt', 'chatgpt.com', 2.1, { utm_source: 'chatgpt.com' }),
  source('ai', 'perplexity', 'perplexity.ai', 1.26),
  source('ai', 'claude', 'claude.ai', 0.7),
  source('ai', 'gemini', 'gemini.google.com', 0.56),
  source('ai', 'copilot', 'copilot.microsoft.com', 0.28),
  source('non_ai', 'email', 'newsletter', 1.8, {
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'weekly-digest',
  }),
  source('non_ai', 'email', 'onboarding', 1.2, {
    utm_source: 'onboarding',
    utm_medium: 'email',
    utm_campaign: 'welcome-3',
  }),
  source('non_ai', 'paid', 'google.com', 1.4, {
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'brand',
    utm_term: 'web analytics',
    gclid: 'Cj0KCQbench',
  }),
  source('non_ai', 'paid', 'linkedin.com', 0.6, {
    utm_source: 'linkedin',
    utm_medium: 'cpc',
    utm_campaign: 'retargeting',
    utm_content: 'ad-3',
  }),
];

/** Country (ISO code, '' when unknown), its share, and its cities ('' stands for no city). */
const COUNTRIES = [
  ['US', 28, ['New York', 'San Francisco', 'Austin', 'Chicago', 'Seattle']],
  ['DE', 9, ['Berlin', 'Munich', 'Hamburg']],
  ['GB', 8, ['London', 'Manchester']],
  ['FR', 6, ['Paris', 'Lyon']],
  ['IN', 6, ['Bengaluru', 'Mumbai', 'Delhi']],
  ['CA', 4, ['Toronto', 'Vancouver']],
  ['BR', 4, ['São Paulo', 'Rio de Janeiro']],
  ['NL', 3, ['Amsterdam']],
  ['JP', 3, ['Tokyo', 'Osaka']],
  ['ES', 3, ['Madrid', 'Barcelona']],
  ['IT', 2.5, ['Milan', 'Rome']],
  ['AU', 2.5, ['Sydney', 'Melbourne']],
  ['PL', 2, ['Warsaw']],
  ['SE', 1.5, ['Stockholm']],
  ['CH', 1.5, ['Zurich']],
  ['AT', 1, ['Vienna']],
  ['BE', 1, ['Brussels']],
  ['DK', 1, ['Copenhagen']],
  ['IE', 1, ['Dublin']],
  ['SG', 1, ['Singapore']],
  ['MX', 1, ['Mexico City']],
  ['KR', 1, ['Seoul']],
  ['PT', 0.8, ['Lisbon']],
  ['FI', 0.7, ['Helsinki']],
  ['NO', 0.7, ['Oslo']],
  ['ZA', 0.6, ['Cape Town']],
  ['', 2, []],
];

/** Flattened: a fifth of each country's visitors have no city. */
export const PLACES = COUNTRIES.flatMap(([country, weight, cities]) =>
  cities.length === 0
    ? [{ country, city: '', weight }]
    : [
        ...cities.map((city) => ({ country, city, weight: (weight * 0.8) / cities.length })),
        { country, city: '', weight: weight * 0.2 },
      ],
);

/** Device, OS and browser together (Bowser's names), so Safari stays on Apple systems. */
const platform = (device, os, browser, weight) => ({ device, os, browser, weight });
export const PLATFORMS = [
  platform('desktop', 'Windows', 'Chrome', 24),
  platform('desktop', 'Windows', 'Microsoft Edge', 8),
  platform('desktop', 'Windows', 'Firefox', 3),
  platform('desktop', 'macOS', 'Chrome', 9),
  platform('desktop', 'macOS', 'Safari', 6),
  platform('desktop', 'macOS', 'Firefox', 1),
  platform('desktop', 'Linux', 'Chrome', 2),
  platform('desktop', 'Linux', 'Firefox', 1.5),
  platform('mobile', 'iOS', 'Safari', 16),
  platform('mobile', 'iOS', 'Chrome', 3),
  platform('mobile', 'Android', 'Chrome', 17),
  platform('mobile', 'Android', 'Samsung Internet for Android', 3),
  platform('mobile', 'Android', 'Firefox', 0.5),
  platform('tablet', 'iOS', 'Safari', 3.5),
  platform('tablet', 'Android', 'Chrome', 1.5),
  platform('', '', '', 1),
];

/** Custom browser events, on 5% of visits; `signup` and `purchase` are the conversions that matter. */
export const CUSTOM_EVENTS = [
  { name: 'cta_click', weight: 40, key: 'button', values: ['hero', 'pricing', 'footer'] },
  { name: 'video_play', weight: 20, key: 'video', values: ['demo', 'tour'] },
  { name: 'download', weight: 15, key: 'file', values: ['whitepaper.pdf', 'brochure.pdf'] },
  { name: 'signup', weight: 20, key: 'plan', values: ['free', 'pro', 'team'] },
  { name: 'purchase', weight: 5, key: 'plan', values: ['pro', 'team'], valueMinor: [1900, 4900, 9900] },
];

export const TRAFFIC = {
  /** Share of visits with one pageview; with the custom events and engaged time below, ~40% bounce. */
  singlePageShare: 0.48,
  /** Mean of the extra pageviews beyond two in multi-page visits (≈ 3.3 pageviews a visit overall). */
  extraPagesMean: 3.958,
  maxPageviews: 60,
  /** Seconds between pageviews, before a visit is squeezed to fit `maxVisitSeconds`. */
  minStepSeconds: 15,
  maxStepSeconds: 150,
  maxVisitSeconds: 2400,
  customEventShare: 0.05,
  /** Of the one-pageview visits without a custom event, the share engaged under 10 s. */
  quickExitShare: 0.88,
  /** Visits a visitor makes: 1 + an exponential of this mean, floored (≈ 3 on average). */
  repeatVisitsMean: 2.466,
  maxVisitsPerVisitor: 200,
  /** One visitor in this many signs in; two signed-in visitor ids share each person. */
  linkedVisitorEvery: 50,
};
