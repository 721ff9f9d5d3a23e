/**
 * Downloads (an access export, a site export) streamed to a file or stdout as they arrive, never
 * held in memory. The client's timeout ends once the answer starts, so a long body is not cut.
 */
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { type TouchtrailClient, TouchtrailNetworkError, unwrap } from '@touchtrail/client';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { formatNumber } from './format.js';

const errnoOf = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
};

/**
 * Streams a download to `out` (else stdout) as it arrives, never holding the body. A refusal
 * comes before any byte is written; a file cut off midway is removed.
 */
export async function downloadTo(
  ctx: Context,
  path: string,
  request: (client: TouchtrailClient) => Promise<{ data?: unknown; error?: unknown; response: Response }>,
  out: string | undefined,
): Promise<void> {
  const body = (await unwrap(request(ctx.client))) as ReadableStream<Uint8Array> | undefined;
  const source = body ? Readable.fromWeb(body) : Readable.from([]);
  try {
    if (out) await pipeline(source, createWriteStream(out));
    else await pipeline(source, process.stdout, { end: false });
  } catch (error) {
    if (!out && errnoOf(error) === 'EPIPE') return; // the reader stopped early (| head)
    if (out) await rm(out, { force: true });
    if (errnoOf(error))
      throw new UsageError(`could not write ${out ?? 'to stdout'}: ${(error as Error).message}`);
    ctx.err(`touchtrail: the download was cut off${out ? '; the partial file was removed' : ''}.\n`);
    throw new TouchtrailNetworkError(`${ctx.settings.url}${path}`, 'the connection was cut', error);
  }
  if (out) ctx.err(`Wrote ${formatNumber((await stat(out)).size)} bytes to ${out}\n`);
}
