/**
 * Delivery to the collect endpoint. Bodies are `text/plain` so no CORS preflight is needed,
 * and fetch sends no cookies (`credentials: 'omit'`): the visitor id travels in the body.
 */

/**
 * Replaced by the server when it serves t.js (COLLECT_PATH, default /v1/collect). It must
 * stay one intact string literal in the built file: the build checks it does.
 */
const COLLECT_PATH = '__TT_COLLECT_PATH__';

/** The collect endpoint on the origin the script was loaded from. */
export function collectUrlFor(scriptSrc: string): string {
  return new URL(COLLECT_PATH, scriptSrc).href;
}

/**
 * Sends one payload; the promise always resolves: with the answer, or with nothing when fetch
 * failed (a failed request is dropped, never retried here). fetch with `keepalive` also survives
 * page exit, and unlike sendBeacon it can leave cookies out, so sendBeacon is only the last
 * resort when fetch is missing or refuses.
 */
export function post(url: string, body: string): Promise<Response | undefined> {
  // The executor turns a synchronous throw (fetch missing or replaced) into a rejection.
  return new Promise<Response>((resolve) =>
    resolve(
      fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'text/plain' },
        keepalive: true,
        credentials: 'omit',
        mode: 'cors',
      }),
    ),
  ).catch((): undefined => {
    try {
      navigator.sendBeacon(url, new Blob([body], { type: 'text/plain' }));
    } catch {
      // Nothing left to try.
    }
  });
}
