/**
 * Debian's Chromium for the server's browser tests, headless and cut off from Google's
 * services (this machine's network refuses them). `*.touchtrail.test` resolves to 127.0.0.1,
 * so test pages can live on their own hosts.
 */
import { type Browser, chromium } from 'playwright-core';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--host-resolver-rules=MAP *.touchtrail.test 127.0.0.1',
    ],
  });
}
