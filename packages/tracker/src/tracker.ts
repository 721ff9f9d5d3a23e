/**
 * The browser snippet served at /t.js: pageviews (including single-page-app navigations),
 * custom events, identify and engaged time, sent to the collect endpoint of the origin the
 * script came from. Nothing here may throw into the host page: every entry point is guarded.
 */

import { pauseEngagement, readEngagedMs, restartEngagement, resumeEngagement } from './engaged-time';
import { collectUrlFor, post } from './transport';
import type { EventOptions, QueuedCall, Touchtrail } from './types';
import { cookieName, randomId, readVisitorId, writeVisitorId } from './visitor-cookie';

const SITE_KEY_RE = /^ttid_[0-9A-Za-z]{22}$/;
/** Shorter totals wait for more (a tab flicked past is not worth a request). */
const MIN_ENGAGED_MS = 1000;
const MAX_ENGAGED_MS = 86_400_000;

/** Wraps `fn` so that whatever it throws stays inside the snippet. */
function guard<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      fn(...args);
    } catch {
      // swallowed on purpose: analytics must never break the page
    }
  };
}

function start(): void {
  const existing = window.touchtrail;
  const all = document.querySelectorAll('script[data-site]');
  const script = (document.currentScript || all[all.length - 1]) as HTMLScriptElement | undefined;
  if (!script) return;
  /** With `data-debug` on the tag, the console says what was sent or skipped, and why; else silence. */
  const isDebug = script.hasAttribute('data-debug');
  const log = (message: string) => {
    if (isDebug) console.log(`touchtrail: ${message}`);
  };
  // A stub always has q: without it, the snippet ran already.
  if (existing?.getVisitorId && !existing.q) {
    log('skipped: t.js already runs here');
    return;
  }
  const site = script.getAttribute('data-site');
  if (!site || !SITE_KEY_RE.test(site)) {
    log('not started: data-site must be a ttid_ snippet key');
    return;
  }
  const domain = script.getAttribute('data-cookie-domain');
  const collectUrl = collectUrlFor(script.src);
  const vidCookie = cookieName(site, domain);
  const queue: QueuedCall[] = existing?.q || [];
  let vid = randomId();
  let isReady = false;
  /** URL of the last pageview: the `ref` of the next in-app navigation. */
  let lastUrl = '';
  let lastPathAndQuery = '';

  /** Logs the server's answer to a send, explaining a drop as a bot. */
  const explain = (type: string, response: Response | undefined) =>
    response
      ? response
          .text()
          .then((body) =>
            log(
              `${type} sent: ${response.status} ${body}${/"bot"/.test(body) ? ' (not counted: headless and automated browsers count as bots)' : ''}`,
            ),
          )
      : log(`${type}: fetch failed (blocked, offline or server down); tried sendBeacon`);

  const send = (type: string, fields: object, url = location.href) => {
    const sent = post(
      collectUrl,
      JSON.stringify(Object.assign({ type, site, vid, url, eid: randomId(), sw: screen.width }, fields)),
    );
    if (isDebug) sent.then((response) => explain(type, response)).catch(() => {});
    return sent;
  };

  const sendEngagement = (url?: string) => {
    const ms = readEngagedMs();
    if (ms < MIN_ENGAGED_MS) return log('engagement under 1 s: not sent yet');
    restartEngagement();
    // Whole ms already (Date.now() differences); a kiosk left open is capped at the server's one day.
    send('engagement', { engaged_ms: Math.min(ms, MAX_ENGAGED_MS) }, url);
  };

  const track = (name: unknown, properties?: unknown, options?: EventOptions) => {
    if (typeof name !== 'string' || !name) return log('track skipped: no event name');
    const value = options?.value;
    const currency = options?.currency;
    // JSON.stringify drops the undefined fields, so absent options are omitted on the wire.
    send('event', {
      name,
      props:
        properties && typeof properties === 'object' && !Array.isArray(properties) ? properties : undefined,
      value: typeof value === 'number' && Number.isFinite(value) ? value : undefined,
      currency: typeof currency === 'string' ? currency : undefined,
    });
  };

  const identify = (uid: unknown) => {
    if ((typeof uid === 'string' && uid) || typeof uid === 'number') send('identify', { uid: String(uid) });
  };

  const methods: Record<string, (...args: never[]) => void> = { track, identify };

  /** Runs a public call, or queues it until the first pageview has been answered. */
  const call = guard((method: string, args: unknown[]) => {
    if (isReady) (methods[method] as (...args: unknown[]) => void)(...args);
    else queue.push([method, args]);
  });

  const markReady = guard(() => {
    isReady = true;
    for (const queued of queue.splice(0)) call(queued[0], queued[1]);
  });

  const sendPageview = () => {
    if (lastUrl) sendEngagement(lastUrl);
    const ref = lastUrl || document.referrer;
    lastUrl = location.href;
    lastPathAndQuery = location.pathname + location.search;
    restartEngagement();
    try {
      vid = readVisitorId(vidCookie) || vid;
      writeVisitorId(vidCookie, vid, domain);
    } catch {
      // cookies blocked (sandboxed frame, privacy settings): the id lives for this page only
    }
    const sent = send('pageview', { ref });
    if (!isReady) sent.then(markReady);
  };

  const onNavigation = guard(() => {
    if (location.pathname + location.search !== lastPathAndQuery) sendPageview();
  });

  const on = (target: EventTarget, type: string, listener: () => void) =>
    target.addEventListener(type, guard(listener));

  const api: Touchtrail = {
    track: (...args: unknown[]) => call('track', args),
    identify: (...args: unknown[]) => call('identify', args),
    getVisitorId: () => (isReady ? vid : null),
  };
  window.touchtrail = api;

  const begin = guard(() => {
    sendPageview();
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method];
      history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
        const result = original.apply(this, args);
        onNavigation();
        return result;
      };
    }
    on(window, 'popstate', onNavigation);
    on(document, 'visibilitychange', () =>
      document.visibilityState === 'hidden' ? sendEngagement() : resumeEngagement(),
    );
    on(window, 'pagehide', () => {
      sendEngagement();
      markReady(); // leaving before the first answer: send what was queued while we still can
    });
    on(window, 'blur', pauseEngagement);
    on(window, 'focus', resumeEngagement);
  });

  // A prerendered page has not been seen yet: count it only once it is shown.
  if ((document as Document & { prerendering?: boolean }).prerendering) {
    log('prerendered: waits until shown');
    on(document, 'prerenderingchange', begin);
  } else {
    begin();
  }
}

guard(start)();
