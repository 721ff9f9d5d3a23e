/**
 * What the dashboard's browser tests share: the built dashboard served by the test's app on a
 * real port, Chromium contexts at desktop and phone sizes (signed in or not), screenshots saved
 * for people to look at, and the accessibility check of a page.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import jsQR from 'jsqr';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, vi } from 'vitest';
import type { TestApp } from '../test/app.js';
import { launchChromium } from '../test/chromium.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? path.join(ROOT, 'packages/dashboard/screenshots');

/** Browser suites run once, on the embedded database: `.ci/run` runs PostgreSQL as well. */
export const ON_POSTGRES = Boolean(process.env.DATABASE_URL);

/**
 * A test file's Chromium, started before its tests (not on PostgreSQL; the global setup built the
 * dashboard) and closed after them. Each test walks several pages, so tests get 90 seconds.
 */
export function useChromium(): () => Browser {
  vi.setConfig({ testTimeout: 90_000 });
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (ON_POSTGRES) return;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());
  return () => {
    if (!browser) throw new Error('useChromium: the browser exists from beforeAll on');
    return browser;
  };
}

/** Listens on a free port and answers the dashboard's address. */
export async function serve(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function newContext(
  browser: Browser,
  base: string,
  options: { cookie?: string; viewport?: typeof DESKTOP; dark?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    colorScheme: options.dark ? 'dark' : 'light',
    baseURL: base,
  });
  context.on('page', trackRequests);
  if (options.cookie) {
    const [name, value] = options.cookie.split(';')[0]?.split('=') ?? [];
    await context.addCookies([{ name: name ?? '', value: value ?? '', url: base }]);
  }
  return context;
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * The serious and critical accessibility violations on the page, as `rule: target` lines. Legacy
 * mode runs axe once in the page, with the same rules; the default mode also opens a blank page
 * to merge results frame by frame, which only cross-origin frames need (no dashboard page has
 * one), and doubles the cost.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')} (${v.help})`));
}

/** The requests each page has started and not yet finished, for `settled`. */
const inFlight = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page) {
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (request) => open.add(request));
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
}

/**
 * Waits until the page has had no request open for a quarter second and no skeleton is left:
 * every panel has its answer, also after a click that changed the view in place (Playwright's
 * own "networkidle" counts only once per navigation).
 */
export async function settled(page: Page) {
  const open = inFlight.get(page);
  if (!open) throw new Error('settled: pages come from a context made by newContext');
  let quietSince = Date.now();
  await page.waitForTimeout(50);
  for (;;) {
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 250) break;
    await page.waitForTimeout(25);
  }
  await page.locator('.skeleton').first().waitFor({ state: 'detached' });
}

/**
 * Reads a QR code the page draws as SVG, as a phone camera would: the picture is rendered onto a
 * canvas in the page and its pixels are decoded by jsQR. Null when nothing readable is there.
 */
export async function readQrCode(svg: Locator): Promise<string | null> {
  const { width, height, pixels } = await svg.evaluate(drawOnCanvas, 400);
  // jsqr is CommonJS: Node's ESM hands over its exports object, vitest the function itself.
  const decode = typeof jsQR === 'function' ? jsQR : jsQR.default;
  return decode(Uint8ClampedArray.from(pixels), width, height)?.data ?? null;
}

/** The few browser types `drawOnCanvas` uses: this package is compiled without the DOM's. */
interface InPage {
  Image: new () => { src: string; decode(): Promise<void> };
  XMLSerializer: new () => { serializeToString(node: unknown): string };
  document: {
    createElement(tag: 'canvas'): {
      width: number;
      height: number;
      getContext(kind: '2d'): {
        drawImage(image: unknown, x: number, y: number, w: number, h: number): void;
        getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
      } | null;
    };
  };
}

/** Runs in the page: the element's SVG drawn on a `size`-pixel canvas, with its RGBA pixels. */
async function drawOnCanvas(element: unknown, size: number) {
  const browser = globalThis as unknown as InPage;
  const image = new browser.Image();
  const markup = new browser.XMLSerializer().serializeToString(element);
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  await image.decode();
  const canvas = browser.document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.drawImage(image, 0, 0, size, size);
  return { width: size, height: size, pixels: Array.from(context.getImageData(0, 0, size, size).data) };
}
