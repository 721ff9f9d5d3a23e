/**
 * `/docs` in Chromium: Redoc renders the operations from this server's own document, asks no
 * other host for anything, and breaks no rule of its own
 * Content-Security-Policy. Saves a screenshot for people to look at.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  newContext,
  ON_POSTGRES,
  SCREENSHOT_DIR,
  serve,
  useChromium,
} from '../dashboard/dashboard.fixtures.js';
import { useTestApp } from '../test/app.js';

const browser = useChromium();

describe.skipIf(ON_POSTGRES)('the API reference in a browser', () => {
  const t = useTestApp({}, { owner: false });

  it('renders the operations, asking this server alone', async () => {
    const base = await serve(t);
    const context = await newContext(browser(), base);
    const page = await context.newPage();
    const elsewhere: string[] = [];
    const refusals: string[] = [];
    // A request the policy blocked never left the browser; any other to another host did.
    const isElsewhere = (address: string) => {
      const url = new URL(address);
      return !['data:', 'blob:'].includes(url.protocol) && url.origin !== base;
    };
    page.on('requestfinished', (request) => {
      if (isElsewhere(request.url())) elsewhere.push(request.url());
    });
    page.on('requestfailed', (request) => {
      // Chromium names a request its Content-Security-Policy stopped with the reason `csp`.
      if (isElsewhere(request.url()) && request.failure()?.errorText !== 'csp') elsewhere.push(request.url());
    });
    page.on('console', (message) => {
      // Redoc's sidebar credit shows Redocly's logo from their CDN; the policy blocks it, as it should.
      const text = message.text();
      if (/Content Security Policy/i.test(text) && !text.includes('cdn.redoc.ly/redoc/logo-mini.svg'))
        refusals.push(text);
    });

    await page.goto('/docs');
    await page
      .getByRole('heading', { name: /^Touchtrail API/ })
      .first()
      .waitFor({ timeout: 30_000 });
    const listGoals = page
      .locator('h2')
      .filter({ hasText: /^List goals/ })
      .first();
    await listGoals.waitFor();
    await page.waitForLoadState('networkidle');
    // One screen, at the goals: the whole reference is too long a picture to look at.
    await listGoals.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'docs-reference.png') });

    expect(elsewhere).toEqual([]);
    expect(refusals).toEqual([]);
    await context.close();
  });
});
