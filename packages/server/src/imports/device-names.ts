/**
 * Device, browser and OS names of other tools in ours (ingest/device.ts: Bowser's names and
 * `desktop`, `mobile`, `tablet`), so an imported breakdown lines up with live traffic. A name not
 * listed is kept as the tool wrote it.
 */
const DEVICES: Record<string, string> = {
  desktop: 'desktop',
  laptop: 'desktop',
  mobile: 'mobile',
  smartphone: 'mobile',
  phone: 'mobile',
  tablet: 'tablet',
};

const BROWSERS: Record<string, string> = {
  chrome: 'Chrome',
  crios: 'Chrome',
  'chromium-webview': 'Chrome',
  firefox: 'Firefox',
  fxios: 'Firefox',
  safari: 'Safari',
  ios: 'Safari',
  'ios-webview': 'Safari',
  'mobile safari': 'Safari',
  edge: 'Microsoft Edge',
  'edge-chromium': 'Microsoft Edge',
  'edge-ios': 'Microsoft Edge',
  'microsoft edge': 'Microsoft Edge',
  opera: 'Opera',
  samsung: 'Samsung Internet for Android',
  'samsung internet': 'Samsung Internet for Android',
  brave: 'Brave',
  vivaldi: 'Vivaldi',
  yandexbrowser: 'Yandex Browser',
};

const SYSTEMS: Record<string, string> = {
  mac: 'macOS',
  macintosh: 'macOS',
  'mac os': 'macOS',
  macos: 'macOS',
  'os x': 'macOS',
  ios: 'iOS',
  'android os': 'Android',
  android: 'Android',
  linux: 'Linux',
  'gnu/linux': 'Linux',
  ubuntu: 'Linux',
  'chrome os': 'Chrome OS',
  chromeos: 'Chrome OS',
  windows: 'Windows',
};

const named = (table: Record<string, string>, raw: string) => {
  const name = raw.trim();
  if (!name || name === '(not set)') return '';
  return table[name.toLowerCase()] ?? name;
};

export const deviceName = (raw: string) => named(DEVICES, raw);
export const browserName = (raw: string) => named(BROWSERS, raw);
/** `Windows 10` and `Windows 7` are Windows, as Bowser names them without a version. */
export const osName = (raw: string) => named(SYSTEMS, /^windows\b/i.test(raw.trim()) ? 'windows' : raw);
/** A country code as we store it: two letters, upper case; anything else is unknown. */
export const countryCode = (raw: string) => {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && code !== 'ZZ' && code !== 'XX' ? code : '';
};
/** A page path without query string or fragment; '/' for an empty one. */
export const pagePath = (raw: string) => {
  const path = raw.trim().replace(/[?#].*$/, '');
  if (!path) return '/';
  if (/^https?:\/\//i.test(path)) {
    try {
      return new URL(path).pathname || '/';
    } catch {
      return '/';
    }
  }
  return path.startsWith('/') ? path : `/${path}`;
};

/** Names some tools use that are not the English region names `Intl` gives. */
const COUNTRY_ALIASES: Record<string, string> = {
  'hong kong': 'HK',
  macao: 'MO',
  macau: 'MO',
  palestine: 'PS',
  'czech republic': 'CZ',
  turkey: 'TR',
  'united states of america': 'US',
  'myanmar (burma)': 'MM',
  "côte d'ivoire": 'CI',
  'ivory coast': 'CI',
};

/** Codes `Intl` names that are no country's today (withdrawn, or groupings). */
const NOT_COUNTRIES = new Set([
  'AN',
  'BU',
  'CS',
  'DD',
  'EU',
  'EZ',
  'FX',
  'NT',
  'QO',
  'SU',
  'TP',
  'UK',
  'UN',
  'XA',
  'XB',
  'YU',
  'ZR',
]);

let countriesByName: Map<string, string> | undefined;

/** A country named in English (`United States`, as Google Analytics writes it) as its code; '' when unknown. */
export function countryFromName(raw: string): string {
  if (!countriesByName) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    countriesByName = new Map(Object.entries(COUNTRY_ALIASES));
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const name = names.of(code);
        const key = name?.toLowerCase();
        if (key && name !== code && name !== 'Unknown Region' && !NOT_COUNTRIES.has(code)) {
          countriesByName.set(key, code);
        }
      }
    }
  }
  const name = raw.trim().toLowerCase().replaceAll('’', "'");
  return countriesByName.get(name) ?? countryCode(raw);
}
