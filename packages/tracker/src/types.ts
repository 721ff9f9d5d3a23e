/** Public surface of `window.touchtrail`, shared by the snippet and its browser tests. */

export interface EventOptions {
  /** Monetary or numeric value of the conversion; sent only when a finite number. */
  value?: number;
  /** ISO 4217 code for `value`, sent as given (the server validates it). */
  currency?: string;
}

export interface Touchtrail {
  track(name: string, properties?: Record<string, unknown>, options?: EventOptions): void;
  identify(userIdOrEmail: string): void;
  /** The visitor id, or null until the first pageview's request has settled. */
  getVisitorId(): string | null;
}

/** A call the site's stub recorded before the script loaded: [method, arguments]. */
export type QueuedCall = [string, unknown[]];

declare global {
  interface Window {
    touchtrail?: Partial<Touchtrail> & { q?: QueuedCall[] };
  }
}
