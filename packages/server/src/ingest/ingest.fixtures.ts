/** Helpers shared by the ingest tests: a browser-like request and payload builders. */
import { randomBytes } from 'node:crypto';
import type { TestApp } from '../test/app.js';

export const CHROME_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
export const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export const newVisitorId = () => randomBytes(16).toString('base64url');
export const newEventId = () => randomBytes(16).toString('base64url');

export function collect(
  t: TestApp,
  payload: Record<string, unknown>,
  options: { userAgent?: string; contentType?: string; headers?: Record<string, string> } = {},
) {
  return t.request({
    method: 'POST',
    url: '/v1/collect',
    headers: {
      'content-type': options.contentType ?? 'text/plain',
      'user-agent': options.userAgent ?? CHROME_UA,
      ...options.headers,
    },
    payload: JSON.stringify({ eid: newEventId(), ...payload }),
  });
}

export function pageview(site: string, vid: string, url: string, ref = '') {
  return { type: 'pageview', site, vid, url, ref };
}
