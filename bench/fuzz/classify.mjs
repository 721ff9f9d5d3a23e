/**
 * Classifying an answer (5xx, Fastify's default bodies, stack traces, SQL, secrets, a 2xx on another
 * account's id) and, at the end, the server's log.
 */

const EXCERPT_CHARS = 300;

const STACK_PATTERN =
  /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|node:|\/)[^\s)"]*:\d+(?::\d+)?|"stack"\s*:|\/(?:work|home|app|usr)\/[^\s"]*\.(?:m?js|ts)\b/i;
const SQL_PATTERN =
  /\bselect\s[^"]{0,200}\sfrom\s|\binsert\s+into\b|\bupdate\s+"?\w+"?\s+set\b|\bdelete\s+from\b|syntax error at or near|violates (?:not-null|unique|foreign key|check) constraint|duplicate key value|relation "[^"]*"|column "[^"]*"|invalid input syntax for|\bkysely\b|\bpglite\b/i;
const FASTIFY_CLIENT_MESSAGES = new Set([
  'Client Error',
  'Exceeded maximum allowed HTTP header size',
  'Client Timeout',
]);

/** What the request itself carried in path, query and body: echoing it back is no leak. */
function sentText(request) {
  let target = request.target;
  try {
    target = decodeURIComponent(target);
  } catch {
    // Deliberately undecodable: compare the raw text.
  }
  const body = Buffer.isBuffer(request.body) ? request.body.toString('latin1') : (request.body ?? '');
  return `${target}\n${body}`.toLowerCase();
}

export function classify(request, result, fx) {
  if (result.error === 'timeout') return ['hung request (no answer in time)'];
  if (result.error === 'not sendable') return [];
  if (result.error) return [`no answer (${result.detail})`];
  const findings = [];
  const { status, body } = result;
  if (status >= 500) findings.push(`${status} answer`);
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const sent = sentText(request);
  const unsent = (match) => match && !sent.includes(match[0].toLowerCase());
  if (unsent(body.match(/FST_[A-Z_]+/))) findings.push('Fastify error code (FST_) in body');
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const { statusCode, code, error, message } = parsed;
    if (
      typeof statusCode === 'number' &&
      typeof code === 'string' &&
      typeof error === 'string' &&
      typeof message === 'string'
    )
      findings.push("Fastify's default error shape {statusCode, code, error, message}");
    if (typeof message === 'string' && /^Route [A-Z]+:.* not found$/.test(message))
      findings.push("Fastify's default 404 body");
    if (typeof message === 'string' && FASTIFY_CLIENT_MESSAGES.has(message))
      findings.push("Fastify's default client-error body");
  }
  if (unsent(body.match(STACK_PATTERN))) findings.push('stack trace or source path in body');
  if (unsent(body.match(SQL_PATTERN))) findings.push('SQL text in body');
  for (const secret of fx.secrets) {
    if (body.includes(secret.value) && !sent.includes(secret.value.toLowerCase()))
      findings.push(`secret in body (${secret.label})`);
  }
  if (status >= 200 && status < 300 && request.foreignPath)
    findings.push(`${status} for another account's id (${request.credential.label})`);
  return findings;
}

export function describeRequest(request) {
  const body =
    request.body === undefined
      ? ''
      : Buffer.isBuffer(request.body)
        ? `<${request.body.length} random bytes>`
        : request.body;
  const excerpt =
    body.length > EXCERPT_CHARS ? `${body.slice(0, EXCERPT_CHARS)}… (${body.length} chars)` : body;
  const target =
    request.target.length > 200
      ? `${request.target.slice(0, 200)}… (${request.target.length} chars)`
      : request.target;
  return {
    replay: `FUZZ_SEED=${request.seed} FUZZ_ONLY=${request.index}`,
    request: `${request.method} ${target}`,
    operation: request.op,
    credential: request.credential.label,
    contentType: request.headers['content-type'],
    mutations: request.mutations.join(', ') || 'none',
    body: JSON.stringify(excerpt),
  };
}

/** Error-level log lines no 5xx answer explains, secrets in the log, and stray stderr output. */
export function checkLog(log, stats, fx) {
  const findings = new Map();
  const add = (kind, example) => {
    const entry = findings.get(kind) ?? { count: 0, example };
    entry.count += 1;
    findings.set(kind, entry);
  };
  let errorLines = 0;
  for (const { stream, line } of log.lines) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      // The start-up banner is plain text on stdout by design; anything on stderr is not.
      if (stream === 'stderr' && line.trim())
        add(STACK_PATTERN.test(line) ? 'stack trace on stderr' : 'plain text on stderr', {
          line: line.slice(0, 300),
        });
      continue;
    }
    for (const secret of fx.secrets) {
      if (line.includes(secret.value))
        add(`secret in log (${secret.label})`, { msg: entry.msg, reqId: entry.reqId });
    }
    if (!(entry.level >= 50)) continue;
    errorLines += 1;
    const sent = entry.reqId ? stats.bySentId.get(entry.reqId) : undefined;
    if (sent && sent.status >= 500) continue;
    const what = {
      msg: entry.msg,
      err: entry.err ? `${entry.err.type}: ${String(entry.err.message).slice(0, 200)}` : undefined,
      hasStack: Boolean(entry.err?.stack),
      ...(sent ? sent.described : { reqId: entry.reqId ?? 'none (not a request)' }),
      answer: sent?.status,
    };
    add(
      sent
        ? 'error-level log line for a request answered below 500'
        : 'error-level log line outside any fuzz request',
      what,
    );
  }
  return { findings, errorLines, lines: log.lines.length };
}
