/**
 * The load of `bench/ingest.mjs`: tracker pageviews as the collect endpoint receives them, a
 * fresh body per request, and the event ids the server acknowledged, so that the benchmark can
 * look for each of them in the database afterwards.
 */
import { randomBytes } from 'node:crypto';

const VISITOR_COUNT = 2000;
const PAGE_COUNT = 50;
const SITE_HOST = 'bench.example.com';
const CHROME_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** 16 bytes as 22 characters of base64url, the shape of the tracker's ids. */
const base64urlId = (bytes) => bytes.toString('base64url');

/** Every 20th pageview arrives from ChatGPT and every 20th from Google; the rest are direct. */
function referrerOf(n) {
  if (n % 20 === 7) return 'https://chatgpt.com/';
  if (n % 20 === 13) return 'https://www.google.com/';
  return undefined;
}

/**
 * An autocannon `requests` entry posting pageviews for `snippetKey` to `path`, and the list of
 * event ids answered 202 with `accepted: true`. Event ids are a random per-run prefix and a
 * counter, so they never repeat. Matching a response to its event id through autocannon's
 * per-connection context holds because requests are not pipelined (one in flight per connection).
 */
export function createPageviewLoad({ snippetKey, path }) {
  const visitors = Array.from({ length: VISITOR_COUNT }, () => base64urlId(randomBytes(16)));
  const eventIdBytes = Buffer.alloc(16);
  randomBytes(8).copy(eventIdBytes, 0);
  const acknowledged = [];
  let sent = 0;

  const request = {
    method: 'POST',
    path,
    headers: { 'content-type': 'text/plain', 'user-agent': CHROME_USER_AGENT },
    setupRequest(req, context) {
      const n = sent++;
      eventIdBytes.writeBigUInt64BE(BigInt(n), 8);
      const eid = base64urlId(eventIdBytes);
      context.eid = eid;
      const payload = {
        type: 'pageview',
        site: snippetKey,
        vid: visitors[n % VISITOR_COUNT],
        eid,
        url: `https://${SITE_HOST}/p${n % PAGE_COUNT}`,
        ref: referrerOf(n),
      };
      return { ...req, body: JSON.stringify(payload) };
    },
    onResponse(status, body, context) {
      if (status === 202 && context.eid && body.includes('"accepted":true')) acknowledged.push(context.eid);
    },
  };

  return {
    request,
    acknowledged,
    /** How many request bodies were built (requests cut off at the end of a run included). */
    get sent() {
      return sent;
    },
  };
}
