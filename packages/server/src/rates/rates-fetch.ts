/**
 * Downloads a reference-rate file. One deadline covers connecting, the headers and the whole
 * body, so a server that stalls mid-file cannot hold a refresh open; the body is capped so a
 * wrong URL cannot fill memory (the full ECB history is about 7 MB).
 */

export const REFRESH_TIMEOUT_MS = 10_000;
export const MAX_RATES_FILE_BYTES = 64 * 1024 * 1024;

export class RatesFetchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RatesFetchError';
  }
}

export async function fetchRatesFile(
  url: string,
  options: { fetch: typeof globalThis.fetch; timeoutMs: number; signal?: AbortSignal },
): Promise<string> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const described = (error: unknown): RatesFetchError => {
    if (error instanceof RatesFetchError) return error;
    if (options.signal?.aborted) return new RatesFetchError(`GET ${url} cancelled`, { cause: error });
    if (deadline.aborted) {
      return new RatesFetchError(`GET ${url} timed out after ${options.timeoutMs} ms`, { cause: error });
    }
    const reason = error instanceof Error ? (error.cause ?? error) : error;
    const message = reason instanceof Error ? reason.message : String(reason);
    return new RatesFetchError(`GET ${url} failed: ${message}`, { cause: error });
  };
  try {
    const response = await options.fetch(url, { signal, headers: { accept: 'application/xml, text/xml' } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new RatesFetchError(`GET ${url} answered ${response.status}`);
    }
    return await readCapped(response, url);
  } catch (error) {
    throw described(error);
  }
}

async function readCapped(response: Response, url: string): Promise<string> {
  const tooLarge = () =>
    new RatesFetchError(`GET ${url}: the file is larger than ${MAX_RATES_FILE_BYTES} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > MAX_RATES_FILE_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RATES_FILE_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new RatesFetchError(`GET ${url}: the file is not valid UTF-8`);
  }
}
