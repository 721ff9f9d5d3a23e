/**
 * The built t.js in Debian's Chromium, part 3: `data-debug` on the tag makes the tracker say in
 * the console what it sent or skipped and why, the server's answer included; without it the
 * tracker writes nothing to the console.
 */
import { describe, expect, test } from 'vitest';
import { useBrowserSession } from './browser-session';
import { newSiteKey, waitFor } from './harness';

/** What the server answers a headless browser (its user agent says HeadlessChrome). */
const BOT_ANSWER = '{"accepted":false,"reason":"bot"}';

const s = useBrowserSession();

/** Opens a fresh page and keeps every console message its scripts write. */
async function openWatchedPage(): Promise<string[]> {
  const messages: string[] = [];
  const page = await s.openPage();
  page.on('console', (message) => {
    // Chromium's own report of the cut connection, not a script's.
    if (!message.text().startsWith('Failed to load resource')) messages.push(message.text());
  });
  return messages;
}

const tag = (site: string, attributes = '') =>
  `<script defer src="${s.harness.ingestOrigin}/t.js" data-site="${site}"${attributes} onload="window.__ttLoaded = true"></script>`;

describe('data-debug', () => {
  test('logs why a headless browser’s pageview was not counted, with the server’s answer', async () => {
    const site = newSiteKey();
    s.harness.answers.set(site, BOT_ANSWER);
    const url = s.harness.addPage({ scriptTag: tag(site, ' data-debug') });
    const messages = await openWatchedPage();
    expect(await s.page.evaluate(() => navigator.userAgent)).toContain('HeadlessChrome');
    await s.page.goto(url);
    await s.harness.arrived(site, 'pageview');
    await s.page.evaluate(() => window.touchtrail?.track?.(''));

    const [logged] = await waitFor(() => {
      const found = messages.filter((m) => m.startsWith('touchtrail: pageview sent: 202'));
      return found.length > 0 ? found : undefined;
    });
    expect(logged).toContain(BOT_ANSWER);
    expect(logged).toMatch(/not counted: headless and automated browsers count as bots/);
    expect(messages).toContain('touchtrail: track skipped: no event name');
  });

  test('logs a counted send, a failed one and a tag it cannot start from', async () => {
    const counted = newSiteKey();
    const messages = await openWatchedPage();
    await s.page.goto(s.harness.addPage({ scriptTag: tag(counted, ' data-debug') }));
    await waitFor(() => messages.includes('touchtrail: pageview sent: 202 {"accepted":true}'));

    const failing = newSiteKey();
    s.harness.failingSites.add(failing);
    await s.page.goto(s.harness.addPage({ scriptTag: tag(failing, ' data-debug') }));
    await waitFor(() =>
      messages.includes(
        'touchtrail: pageview: fetch failed (blocked, offline or server down); tried sendBeacon',
      ),
    );

    await s.page.goto(s.harness.addPage({ scriptTag: tag('ttid_not-a-key', ' data-debug') }));
    await waitFor(() => s.page.evaluate(() => window.__ttLoaded));
    await waitFor(() => messages.includes('touchtrail: not started: data-site must be a ttid_ snippet key'));
  });

  test('without data-debug, writes nothing to the console, whatever the answer', async () => {
    const site = newSiteKey();
    s.harness.answers.set(site, BOT_ANSWER);
    const failing = newSiteKey();
    s.harness.failingSites.add(failing);
    const messages = await openWatchedPage();

    await s.page.goto(s.harness.addPage({ site }));
    await s.harness.arrived(site, 'pageview');
    await s.page.evaluate(() => window.touchtrail?.track?.(''));
    await s.page.evaluate(() => window.touchtrail?.track?.('signup'));
    await s.harness.arrived(site, 'event');
    await s.page.goto(s.harness.addPage({ site: failing }));
    await s.harness.arrived(failing, 'pageview');
    await s.page.goto(s.harness.addPage({ site: 'ttid_not-a-key' }));
    await waitFor(() => s.page.evaluate(() => window.__ttLoaded));
    // A debug page last: its message shows the console was being read when the others ran.
    await s.page.goto(s.harness.addPage({ scriptTag: tag(newSiteKey(), ' data-debug') }));
    await waitFor(() => messages.some((m) => m.startsWith('touchtrail: pageview sent')));

    expect(messages).toEqual(['touchtrail: pageview sent: 202 {"accepted":true}']);
  });
});
