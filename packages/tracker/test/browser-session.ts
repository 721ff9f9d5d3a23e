/**
 * Per-file browser test session: one harness (server + Chromium) per file, a fresh browser
 * context per test, and a check after each test that the page never saw an uncaught error.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type Harness, startHarness } from './harness';

declare global {
  interface Window {
    __ttLoaded?: boolean;
    __sent?: string[];
  }
}

export const ID_RE = /^[A-Za-z0-9_-]{22}$/;

export interface BrowserSession {
  harness: Harness;
  context: BrowserContext;
  page: Page;
  /** A fresh context and page for this test, watched for page errors. */
  openPage(): Promise<Page>;
  /** Emulates the tab being hidden or shown again. */
  setVisibility(state: 'hidden' | 'visible'): Promise<void>;
  /** `touchtrail.getVisitorId()` in the page, null when not defined. */
  visitorId(): Promise<string | null>;
}

export function useBrowserSession(): BrowserSession {
  let pageErrors: Error[] = [];
  const session = {
    async openPage() {
      session.context = await session.harness.browser.newContext();
      session.page = await session.context.newPage();
      pageErrors = [];
      session.page.on('pageerror', (error) => pageErrors.push(error));
      return session.page;
    },
    setVisibility: (state: 'hidden' | 'visible') =>
      session.page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', { value, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state),
    visitorId: () => session.page.evaluate(() => window.touchtrail?.getVisitorId?.() ?? null),
  } as BrowserSession;

  beforeAll(async () => {
    session.harness = await startHarness();
  });
  afterAll(async () => {
    await session.harness?.close();
  });
  afterEach(async () => {
    expect(pageErrors).toEqual([]);
    await session.context?.close();
  });
  return session;
}
