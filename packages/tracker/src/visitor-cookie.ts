/**
 * The first-party visitor cookie of DESIGN.md §4: `_svc_vid` while host-only, and
 * `_svc_vid_` + 8 characters of the site key once scoped to a confirmed cookie domain.
 */

/** 396 days (60*60*24*396): just over 13 months, so a monthly visitor is never lost. */
const MAX_AGE_S = 34_214_400;
const ID_RE = /^[\w-]{22}$/;

/** 16 random bytes as base64url without padding: 22 characters. */
export function randomId(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
    .slice(0, 22)
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

export function cookieName(site: string, domain: string | null): string {
  return domain ? `_svc_vid_${site.slice(5, 13)}` : '_svc_vid';
}

/** The id stored under exactly `name` (never a prefix match), if it looks like one we wrote. */
export function readVisitorId(name: string): string | undefined {
  for (const part of document.cookie.split(/; */)) {
    const value = part.slice(name.length + 1);
    if (part.startsWith(`${name}=`) && ID_RE.test(value)) return value;
  }
}

/** Sets or refreshes the cookie; browsers ignore it silently when `domain` doesn't match the page. */
export function writeVisitorId(name: string, id: string, domain: string | null): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Safari and older Firefox
  document.cookie = `${name}=${id}; Max-Age=${MAX_AGE_S}; Path=/; SameSite=Lax${domain ? `; Domain=${domain}` : ''}${
    location.protocol === 'https:' ? '; Secure' : ''
  }`;
}
