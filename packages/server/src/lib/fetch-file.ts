/**
 * Downloads a data file the server refreshes on its own (exchange rates, crawler address
 * ranges). One deadline covers connecting, the headers and the whole body, so a server that
 * stalls mid-file cannot hold a refresh open; the body is capped so a wrong URL cannot fill
 * memory.
 */

export const FETCH_FILE_TIMEOUT_MS = 10_000;

export class FetchFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FetchFileError';
  }
}

/**
 * The URL as messages and logs show it: origin and path only, since a provider's key can ride
 * in the query string or the user part.
 */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(not a valid URL)';
  }
}

export async function fetchFile(
  url: string,
  options: {
    fetch: typeof globalThis.fetch;
    timeoutMs: number;
    maxBytes: number;
    accept: string;
    signal?: AbortSignal;
  },
): Promise<string> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const shown = shownUrl(url);
  const described = (error: unknown): FetchFileError => {
    if (error instanceof FetchFileError) return error;
    if (options.signal?.aborted) return new FetchFileError(`GET ${shown} cancelled`, { cause: error });
    if (deadline.aborted) {
      return new FetchFileError(`GET ${shown} timed out after ${options.timeoutMs} ms`, { cause: error });
    }
    const reason = error instanceof Error ? (error.cause ?? error) : error;
    // Some messages quote the URL in full.
    const message = (reason instanceof Error ? reason.message : String(reason)).replaceAll(url, shown);
    return new FetchFileError(`GET ${shown} failed: ${message}`, { cause: error });
  };
  try {
    const response = await options.fetch(url, { signal, headers: { accept: options.accept } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new FetchFileError(`GET ${shown} answered ${response.status}`);
    }
    return await readCapped(response, shown, options.maxBytes);
  } catch (error) {
    throw described(error);
  }
}

async function readCapped(response: Response, shown: string, maxBytes: number): Promise<string> {
  const tooLarge = () => new FetchFileError(`GET ${shown}: the file is larger than ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
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
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new FetchFileError(`GET ${shown}: the file is not valid UTF-8`);
  }
}
