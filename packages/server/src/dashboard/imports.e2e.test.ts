/**
 * Settings → Imports and the overview's chart in Chromium against the real app: a Plausible
 * export uploaded from the file picker with its progress, worked by the import job, listed with
 * its days; a broken Umami file listed with its line and reason; the overview's figures then
 * include the imported days, which the chart shades and names. Checked for accessibility and
 * saved as desktop and phone (dark) screenshots.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { plausibleFiles, umamiCsv, umamiRows, zipOf } from '../imports/imports.fixtures.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { useProcessorTestApp } from '../integrations/integrations.fixtures.js';
import { DAY_MS } from '../lib/clock.js';
import { insertSite } from '../test/factories.js';
import {
  newContext,
  ON_POSTGRES,
  PHONE,
  screenshot,
  seriousViolations,
  settled,
  useChromium,
} from './dashboard.fixtures.js';

const browser = useChromium();

describe.skipIf(ON_POSTGRES)('the imports settings and the imported days on the chart', () => {
  const t = useProcessorTestApp();
  let site: { id: string; snippet_key: string; domain: string };
  const day = (daysAgo: number) =>
    new Date(t.clock.now().getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
  const section = () => `/sites/${site.id}/settings/imports`;
  const work = () => t.app.services.importJobs.runImportsOnce();

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, {
      domain: 'imports-dashboard.example.com',
      name: 'Bakery',
    });
    // The site's own traffic starts today; the export holds two days three weeks back.
    const response = await collect(t, pageview(site.snippet_key, newVisitorId(), `https://${site.domain}/`));
    expect(response.statusCode).toBe(202);
  });

  it('uploads an export, shows its progress and days, and a broken file’s line', async () => {
    const files = Object.fromEntries(
      Object.entries(plausibleFiles()).map(([name, text]) => [
        name,
        text.replaceAll('2025-01-01', day(20)).replaceAll('2025-01-02', day(19)),
      ]),
    );
    const context = await newContext(browser(), t.baseUrl, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.goto(`/sites/${site.id}/settings`);
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Imports' })
      .click();
    await settled(page);
    expect(new URL(page.url()).pathname).toBe(section());
    await page.getByRole('heading', { name: 'No import yet' }).waitFor();

    expect(await page.getByRole('radio', { name: 'Plausible' }).isChecked()).toBe(true);
    const upload = page.getByRole('button', { name: 'Upload and import' });
    expect(await upload.isDisabled()).toBe(true);
    await page.getByLabel('Export file').setInputFiles({
      name: 'bakery_export.zip',
      mimeType: 'application/zip',
      buffer: await zipOf(files),
    });
    await upload.click();
    await page.getByRole('listitem', { name: 'Plausible import, waiting' }).waitFor();
    await work();
    const done = page.getByRole('listitem', { name: 'Plausible import, imported' });
    await done.waitFor();
    expect(await done.textContent()).toContain('26 rows read');

    await page.getByRole('radio', { name: 'Umami' }).check();
    const broken = umamiCsv(umamiRows(site.domain)).replace('2025-03-01 10:00:00', 'soon');
    await page.getByLabel('Export file').setInputFiles({
      name: 'events.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(broken),
    });
    await page.getByRole('button', { name: 'Upload and import' }).click();
    await page.getByRole('listitem', { name: 'Umami import, waiting' }).waitFor();
    await work();
    const failed = page.getByRole('listitem', { name: 'Umami import, failed' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Line 5: created_at "soon" is not a date and time.');
    await settled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings-imports');

    // The overview adds the imported days and shades them on the chart.
    await page.goto(`/sites/${site.id}`);
    await settled(page);
    await page.getByText('Shaded: days imported from Plausible').waitFor();
    const visits = page.getByRole('button', { name: /^Visits/ });
    expect(await visits.textContent()).toMatch(/19/);
    await screenshot(page, 'overview-imported-days');
    await context.close();

    const phone = await newContext(browser(), t.baseUrl, {
      cookie: t.owner.cookie,
      viewport: PHONE,
      dark: true,
    });
    const small = await phone.newPage();
    await small.goto(section());
    await settled(small);
    expect(await small.getByRole('listitem', { name: /import,/ }).count()).toBe(2);
    const overflow = await small.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, 'the section scrolls sideways').toBeLessThanOrEqual(0);
    expect(await seriousViolations(small)).toEqual([]);
    await screenshot(small, 'settings-imports-phone');
    await phone.close();
  });
});
