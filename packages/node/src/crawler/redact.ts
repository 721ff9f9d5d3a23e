/**
 * Personal data kept in the host: a query-string value holding an email address or a phone
 * number is replaced with `[REDACTED]` before the hit leaves the process (the same patterns the
 * server applies to page URLs, so a crawled `/reset?email=…` reaches Touchtrail without it).
 */
const REDACTED = encodeURIComponent('[REDACTED]');
const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const PHONE = /(?:\+|\(\d{1,4}\)\s?)\d[\d\s().-]{5,18}\d|\b\d{3}[\s.-]\d{3,4}[\s.-]\d{3,4}\b/;

const isPersonal = (value: string) => EMAIL.test(value) || PHONE.test(value);

/** The path with personal query-string values redacted; the fragment, if any, is dropped. */
export function redactPath(path: string): string {
  const hashStart = path.indexOf('#');
  const withoutHash = hashStart === -1 ? path : path.slice(0, hashStart);
  const queryStart = withoutHash.indexOf('?');
  if (queryStart === -1) return withoutHash;
  const query = withoutHash
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return isPersonal(pair) ? REDACTED : pair;
      let value = pair.slice(equals + 1);
      try {
        value = decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        // Not valid percent-encoding: look at the raw text.
      }
      return isPersonal(value) ? `${pair.slice(0, equals)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${withoutHash.slice(0, queryStart)}?${query}`;
}
