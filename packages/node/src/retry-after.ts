/** The HTTP Retry-After header, read the same way by the SDK and the crawler reporter. */

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; 0 when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  const text = value?.trim();
  if (!text) return 0;
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  return Number.isFinite(ms) ? Math.max(ms, 0) : 0;
}
