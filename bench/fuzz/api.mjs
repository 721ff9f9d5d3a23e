/** The set-up's HTTP calls: a browser-like request that must answer as expected, and logging in. */

// Ingest drops what looks like a bot; the set-up's pageviews must count.
const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export async function call(
  baseUrl,
  method,
  target,
  { body, key, cookie, expect = [200, 201, 202, 204] } = {},
) {
  const headers = {
    'user-agent': BROWSER_USER_AGENT,
    'x-forwarded-for': `10.255.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 254) + 1}`,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers.authorization = `Bearer ${key}`;
  if (cookie) {
    headers.cookie = cookie;
    // A write signed in with the session cookie must name the server's own origin, as a browser does.
    headers.origin = new URL(baseUrl).origin;
  }
  const response = await fetch(`${baseUrl}${target}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expect.includes(response.status))
    throw new Error(`set-up: ${method} ${target} answered ${response.status}: ${text.slice(0, 300)}`);
  const setCookie = response.headers.get('set-cookie');
  return {
    json: text ? JSON.parse(text) : undefined,
    cookie: setCookie ? setCookie.split(';')[0] : undefined,
  };
}

export const login = async (baseUrl, email, password) =>
  (await call(baseUrl, 'POST', '/v1/auth/login', { body: { email, password } })).cookie;
