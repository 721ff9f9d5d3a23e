/**
 * `/docs` in Chromium: Scalar renders the operations from this server's own document, asks no
 * other host for anything (no fonts, telemetry or proxy), and breaks no rule of its own
 * Content-Security-Policy. Saves a screenshot for people to look at.
 */
import { describe, expect, it } from 'vitest';
import { newContext, ON_POSTGRES, screenshot, serve, useChromium } from '../dashboard/dashboard.fixtures.js';
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
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== base) elsewhere.push(request.url());
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
    });

    await page.goto('/docs');
    await page.getByRole('heading', { name: 'Touchtrail API' }).waitFor({ timeout: 30_000 });
    // Tags start collapsed; open the goals tag from the sidebar.
    await page.getByText('goals', { exact: true }).first().click();
    await page
      .getByRole('heading', { name: /^List goals/ })
      .first()
      .waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'docs-reference');

    expect(elsewhere).toEqual([]);
    expect(refusals).toEqual([]);
    await context.close();
  });
});
