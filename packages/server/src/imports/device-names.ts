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
