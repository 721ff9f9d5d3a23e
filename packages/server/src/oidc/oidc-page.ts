/** The small HTML page a failed OpenID Connect sign-in shows: what happened, and a way back. */
import type { FastifyReply } from 'fastify';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function sendFailurePage(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign-in failed · Touchtrail</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body>
<h1>Sign-in failed</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/">Back to Touchtrail</a></p>
</body>
</html>
`);
}
