/**
 * The facts behind source classification, as plain data: which referrer hosts, Android app ids
 * and `utm_source` values mean an AI assistant, and which mean search, social or email.
 *
 * Where the facts come from (facts only — host names, app ids, source names — restated here;
 * no code or wording was copied):
 *  - matomo-org/searchengine-and-social-list, `AIAssistants.yml` (CC0 1.0): the AI assistants
 *    and their hosts;
 *  - PostHog, `posthog/models/channel_type/channel_definitions.json` (MIT): more AI hosts (which
 *    PostHog files under search), the Perplexity app id, and the search, social and email hosts,
 *    app ids and source names.
 * Rows marked "reported" come from neither list: they are widely observed in referrer and
 * campaign data (ChatGPT tagging its links `utm_source=chatgpt.com`, Copilot in Edge's sidebar
 * sending `edgeservices.bing.com`, the assistants' Play Store app ids).
 *
 * How the classifier reads the tables:
 *  - every AI row maps to `{kind: 'ai', name: label}`, every other row to
 *    `{kind: 'non_ai', name: channel}`;
 *  - hosts match on whole labels, most specific first: `www.perplexity.ai` and `l.facebook.com`
 *    match their parents, `gemini.google.com` beats `google.com`, `evil-chatgpt.com` matches
 *    nothing;
 *  - app ids match on whole dot-separated segments: `ai.perplexity.app` covers
 *    `ai.perplexity.app.android`;
 *  - `utm_source` values are compared lower-cased; a value that looks like a host
 *    (`perplexity.ai`, `mail.google.com`) is also looked up among the hosts.
 * Paths are never looked at: browsers send only the origin of a cross-origin referrer by
 * default, so `x.com/i/grok` or `huggingface.co/chat` cannot be told from their sites.
 * Labels are stored with every visit and attribution credit: add new ones, never rename.
 */

export type NonAiChannel = 'search' | 'social' | 'email' | 'referral';

export interface AiAssistant {
  /** The `session_ai_source` label: lower-case, stable. */
  readonly label: string;
  readonly title: string;
  readonly hosts: readonly string[];
  readonly utmSources: readonly string[];
  readonly androidApps: readonly string[];
}

export interface ChannelSources {
  readonly channel: NonAiChannel;
  readonly hosts: readonly string[];
  readonly utmSources: readonly string[];
  readonly androidApps: readonly string[];
}

/**
 * Bare names that are too ambiguous to mean an assistant on their own are left out of
 * `utmSources` (`you`, `meta`, `pi`, `venice`, `jasper`): those assistants count only by host.
 */
export const AI_ASSISTANTS: readonly AiAssistant[] = [
  {
    label: 'chatgpt',
    title: 'ChatGPT',
    hosts: ['chatgpt.com', 'chat.openai.com', 'labs.openai.com'],
    // chatgpt.com: ChatGPT adds it to the links in its answers (reported).
    utmSources: ['chatgpt.com', 'chatgpt', 'openai', 'chat.openai.com'],
    androidApps: ['com.openai.chatgpt'], // reported
  },
  {
    label: 'perplexity',
    title: 'Perplexity',
    hosts: ['perplexity.ai'],
    utmSources: ['perplexity', 'perplexity.ai'], // `perplexity`: reported on its links
    androidApps: ['ai.perplexity.app'],
  },
  {
    label: 'claude',
    title: 'Claude',
    hosts: ['claude.ai'],
    utmSources: ['claude', 'claude.ai', 'anthropic'],
    androidApps: ['com.anthropic.claude'], // reported
  },
  {
    label: 'gemini',
    title: 'Gemini',
    hosts: ['gemini.google.com', 'bard.google.com'],
    utmSources: ['gemini', 'gemini.google.com', 'bard'],
    androidApps: ['com.google.android.apps.bard'], // reported: the Gemini app kept Bard's id
  },
  {
    label: 'copilot',
    title: 'Microsoft Copilot',
    // edgeservices.bing.com: Copilot in Edge's sidebar (reported).
    hosts: ['copilot.microsoft.com', 'copilot.cloud.microsoft', 'edgeservices.bing.com'],
    utmSources: ['copilot', 'copilot.microsoft.com', 'bing_chat', 'bingchat'],
    androidApps: ['com.microsoft.copilot'], // reported
  },
  {
    label: 'deepseek',
    title: 'DeepSeek',
    hosts: ['chat.deepseek.com', 'deepseek.com'],
    utmSources: ['deepseek'],
    androidApps: ['com.deepseek.chat'], // reported
  },
  {
    label: 'mistral',
    title: 'Le Chat (Mistral)',
    hosts: ['chat.mistral.ai'],
    utmSources: ['mistral', 'lechat', 'le_chat'],
    androidApps: [],
  },
  {
    label: 'grok',
    title: 'Grok',
    hosts: ['grok.com'],
    utmSources: ['grok'],
    androidApps: ['ai.x.grok'], // reported
  },
  {
    label: 'meta_ai',
    title: 'Meta AI',
    hosts: ['meta.ai'],
    utmSources: ['meta.ai', 'meta_ai'],
    androidApps: [],
  },
  {
    label: 'duck_ai',
    title: 'Duck.ai',
    hosts: ['duck.ai'],
    utmSources: ['duck.ai', 'duck_ai', 'duckai'],
    androidApps: [],
  },
  { label: 'you', title: 'You.com', hosts: ['you.com'], utmSources: ['you.com', 'youcom'], androidApps: [] },
  { label: 'poe', title: 'Poe', hosts: ['poe.com'], utmSources: ['poe', 'poe.com'], androidApps: [] },
  { label: 'phind', title: 'Phind', hosts: ['phind.com'], utmSources: ['phind'], androidApps: [] },
  { label: 'qwen', title: 'Qwen Chat', hosts: ['chat.qwen.ai'], utmSources: ['qwen'], androidApps: [] },
  {
    label: 'kimi',
    title: 'Kimi',
    hosts: ['kimi.com', 'kimi.moonshot.cn'],
    utmSources: ['kimi', 'moonshot'],
    androidApps: [],
  },
  {
    label: 'character_ai',
    title: 'Character.AI',
    hosts: ['character.ai'],
    utmSources: ['character.ai', 'characterai'],
    androidApps: [],
  },
  { label: 'pi', title: 'Pi', hosts: ['pi.ai'], utmSources: ['pi.ai'], androidApps: [] },
  { label: 'felo', title: 'Felo', hosts: ['felo.ai'], utmSources: ['felo'], androidApps: [] },
  { label: 'komo', title: 'Komo', hosts: ['komo.ai'], utmSources: ['komo'], androidApps: [] },
  { label: 'iask', title: 'iAsk', hosts: ['iask.ai'], utmSources: ['iask'], androidApps: [] },
  { label: 'andi', title: 'Andi', hosts: ['andisearch.com'], utmSources: ['andisearch'], androidApps: [] },
  { label: 'chatglm', title: 'ChatGLM', hosts: ['chatglm.cn'], utmSources: ['chatglm'], androidApps: [] },
  {
    label: 'ernie',
    title: 'ERNIE Bot (Baidu)',
    hosts: ['yiyan.baidu.com', 'ernie.baidu.com', 'ai.baidu.com'],
    utmSources: ['ernie', 'yiyan'],
    androidApps: [],
  },
  { label: 'doubao', title: 'Doubao', hosts: ['doubao.com'], utmSources: ['doubao'], androidApps: [] },
  { label: 'genspark', title: 'Genspark', hosts: ['genspark.ai'], utmSources: ['genspark'], androidApps: [] },
  { label: 'gigachat', title: 'GigaChat', hosts: ['giga.chat'], utmSources: ['gigachat'], androidApps: [] },
  { label: 'manus', title: 'Manus', hosts: ['manus.im'], utmSources: ['manus'], androidApps: [] },
  { label: 'lumo', title: 'Lumo (Proton)', hosts: ['lumo.proton.me'], utmSources: ['lumo'], androidApps: [] },
  { label: 'sarvam', title: 'Sarvam', hosts: ['sarvam.ai'], utmSources: ['sarvam'], androidApps: [] },
  {
    label: 't3_chat',
    title: 'T3 Chat',
    hosts: ['t3.chat'],
    utmSources: ['t3chat', 't3_chat'],
    androidApps: [],
  },
  {
    label: 'yuanbao',
    title: 'Tencent Yuanbao',
    hosts: ['yuanbao.tencent.com', 'hunyuan.tencent.com'],
    utmSources: ['yuanbao', 'hunyuan'],
    androidApps: [],
  },
  { label: 'venice', title: 'Venice', hosts: ['venice.ai'], utmSources: ['venice.ai'], androidApps: [] },
  {
    label: 'xinghuo',
    title: 'iFlytek Spark',
    hosts: ['xinghuo.xfyun.cn'],
    utmSources: ['xinghuo'],
    androidApps: [],
  },
  {
    label: 'notebooklm',
    title: 'NotebookLM',
    hosts: ['notebooklm.google.com'],
    utmSources: ['notebooklm'],
    androidApps: [],
  },
  {
    label: 'chatplus',
    title: 'Chat+',
    hosts: ['chatplus.com', 'chat-gpt.org'],
    utmSources: ['chatplus'],
    androidApps: [],
  },
  { label: 'jasper', title: 'Jasper', hosts: ['app.jasper.ai'], utmSources: ['jasper.ai'], androidApps: [] },
];

/**
 * Search, social and email origins. `referral` rows exist only to keep non-search Google
 * properties (documents, sign-in, help pages) out of the `google.com` search row.
 */
export const CHANNEL_SOURCES: readonly ChannelSources[] = [
  {
    channel: 'search',
    hosts: [
      'google.com',
      'bing.com',
      'duckduckgo.com',
      'yahoo.com',
      'yahoo.co.jp',
      'yandex.ru',
      'yandex.com',
      'ya.ru',
      'baidu.com',
      'ecosia.org',
      'search.brave.com',
      'startpage.com',
      'qwant.com',
      'naver.com',
      'seznam.cz',
      'daum.net',
      'so.com',
      'sogou.com',
      'sm.cn',
      'search.aol.com',
      'ask.com',
      'kagi.com',
      'mojeek.com',
      'yep.com',
      'presearch.com',
      'swisscows.com',
      'metager.org',
      'search.lilo.org',
      'coccoc.com',
      'msn.com',
      'dogpile.com',
    ],
    utmSources: [
      'google',
      'bing',
      'yahoo',
      'duckduckgo',
      'yandex',
      'baidu',
      'ecosia',
      'brave',
      'startpage',
      'qwant',
      'naver',
      'seznam',
      'daum',
      'sogou',
      'ask',
      'aol',
      'kagi',
      'msn',
    ],
    androidApps: ['com.google.android.googlequicksearchbox', 'com.microsoft.bing', 'ru.yandex.searchplugin'],
  },
  {
    channel: 'social',
    hosts: [
      'facebook.com',
      'fb.com',
      'fb.me',
      'messenger.com',
      'instagram.com',
      'threads.net',
      'threads.com',
      'twitter.com',
      'x.com',
      't.co',
      'linkedin.com',
      'lnkd.in',
      'reddit.com',
      'redd.it',
      'youtube.com',
      'youtu.be',
      'tiktok.com',
      'pinterest.com',
      'pin.it',
      'bsky.app',
      'news.ycombinator.com',
      't.me',
      'web.telegram.org',
      'whatsapp.com',
      'wa.me',
      'discord.com',
      'discord.gg',
      'vk.com',
      'ok.ru',
      'weibo.com',
      'quora.com',
      'medium.com',
      'substack.com',
      'tumblr.com',
      'snapchat.com',
      'twitch.tv',
      'vimeo.com',
      'line.me',
      'xing.com',
      'stackoverflow.com',
      'producthunt.com',
      'xiaohongshu.com',
      'douban.com',
      'warpcast.com',
      'flipboard.com',
      'blog.naver.com',
      'cafe.naver.com',
      'sites.google.com',
      'groups.google.com',
    ],
    utmSources: [
      'facebook',
      'fb',
      'instagram',
      'ig',
      'threads',
      'twitter',
      'x',
      'linkedin',
      'reddit',
      'youtube',
      'tiktok',
      'pinterest',
      'bluesky',
      'bsky',
      'hackernews',
      'hn',
      'telegram',
      'whatsapp',
      'discord',
      'snapchat',
      'mastodon',
      'quora',
      'medium',
      'vk',
      'tumblr',
      'twitch',
    ],
    androidApps: [
      'com.facebook.katana',
      'com.facebook.lite',
      'com.facebook.orca',
      'com.instagram.android',
      'com.instagram.barcelona',
      'com.twitter.android',
      'com.linkedin.android',
      'com.reddit.frontpage',
      'com.google.android.youtube',
      'com.zhiliaoapp.musically',
      'com.ss.android.ugc.trill',
      'com.pinterest',
      'xyz.blueskyweb.app',
      'org.telegram.messenger',
      'com.whatsapp',
      'com.discord',
      'com.snapchat.android',
      'jp.naver.line.android',
      'org.joinmastodon.android',
    ],
  },
  {
    channel: 'email',
    hosts: [
      'mail.google.com',
      'outlook.live.com',
      'outlook.office.com',
      'outlook.office365.com',
      'mail.yahoo.com',
      'mail.yahoo.co.jp',
      'mail.aol.com',
      'mail.proton.me',
      'mail.yandex.ru',
      'mail.yandex.com',
      'e.mail.ru',
      'email.seznam.cz',
      'mail.naver.com',
      'mail.zoho.com',
      'app.fastmail.com',
    ],
    utmSources: [
      'email',
      'e-mail',
      'e_mail',
      'newsletter',
      'gmail',
      'outlook',
      'mailchimp',
      'klaviyo',
      'brevo',
    ],
    androidApps: [
      'com.google.android.gm',
      'com.microsoft.office.outlook',
      'com.yahoo.mobile.client.android.mail',
      'com.samsung.android.email.provider',
      'ch.protonmail.android',
      'com.readdle.smartemail',
      'me.bluemail.mail',
      'org.kman.aquamail',
      'ru.yandex.mail',
      'ru.mail.mailapp',
      'com.easilydo.mail',
    ],
  },
  {
    channel: 'referral',
    hosts: [
      'accounts.google.com',
      'docs.google.com',
      'drive.google.com',
      'support.google.com',
      'developers.google.com',
      'cloud.google.com',
      'analytics.google.com',
      'ads.google.com',
    ],
    utmSources: [],
    androidApps: [],
  },
];

/**
 * Brands whose sites live under many country suffixes (`google.de`, `google.co.uk`,
 * `yandex.kz`, `pinterest.fr`): matched on the registrable name, once the tables above found
 * nothing more specific.
 */
export const ANY_SUFFIX_BRANDS: Readonly<Record<string, NonAiChannel>> = {
  google: 'search',
  bing: 'search',
  yahoo: 'search',
  yandex: 'search',
  pinterest: 'social',
};

/** `utm_medium` values (lower-cased) that name a channel; PostHog's medium rows, regrouped. */
export const MEDIUM_CHANNELS: Readonly<Record<string, NonAiChannel>> = {
  email: 'email',
  'e-mail': 'email',
  e_mail: 'email',
  'e mail': 'email',
  newsletter: 'email',
  social: 'social',
  'social-media': 'social',
  social_media: 'social',
  'social media': 'social',
  'social-network': 'social',
  'social network': 'social',
  sm: 'social',
  organic: 'search',
  referral: 'referral',
  link: 'referral',
};

/** `utm_medium` values meaning a paid placement, plus any value starting with a paid prefix. */
export const PAID_MEDIUMS: readonly string[] = [
  'cpc',
  'ppc',
  'cpm',
  'cpv',
  'cpa',
  'cpp',
  'display',
  'banner',
  'retargeting',
  'remarketing',
  'ads',
];
export const PAID_MEDIUM_PREFIXES: readonly string[] = ['paid']; // paid, paid_social, paidsearch…

/**
 * Click ids that ad platforms add only to ad clicks: their presence means `paid`. `platform`
 * stands in as the source name when the visit has no referrer and no utm_source.
 */
export const PAID_CLICK_IDS: readonly { readonly param: string; readonly platform: string }[] = [
  { param: 'gclid', platform: 'google.com' },
  { param: 'gbraid', platform: 'google.com' },
  { param: 'wbraid', platform: 'google.com' },
  { param: 'dclid', platform: 'doubleclick.net' },
  { param: 'msclkid', platform: 'bing.com' },
  { param: 'ttclid', platform: 'tiktok.com' },
  { param: 'twclid', platform: 'x.com' },
  { param: 'li_fat_id', platform: 'linkedin.com' },
  { param: 'sccid', platform: 'snapchat.com' },
  { param: 'yclid', platform: 'yandex.ru' },
];

/**
 * Click ids added to organic links as well as ads, so they tell the platform but not that the
 * click was paid: Facebook and Instagram put `fbclid` on every outbound link since 2018. They
 * only count when no referrer and no campaign says more (in-app browsers often drop the
 * referrer). Move a row to PAID_CLICK_IDS to count it as paid instead.
 */
export const ORGANIC_CLICK_IDS: readonly {
  readonly param: string;
  readonly platform: string;
  readonly channel: NonAiChannel;
}[] = [
  { param: 'fbclid', platform: 'facebook.com', channel: 'social' },
  { param: 'igshid', platform: 'instagram.com', channel: 'social' },
];
