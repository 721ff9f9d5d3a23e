/**
 * The "Payment processors" settings section in Chromium against the real app: connecting Stripe
 * (an API key pasted by mistake is refused in words, then the whsec_ secret), the receiving URL
 * it answers, Stripe's own signed deliveries showing up in the list (one refused, one received),
 * a second connection refused as a conflict, and disconnecting. Checked for accessibility and
 * saved as a desktop screenshot.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { listConnections, useProcessorTestApp } from '../integrations/integrations.fixtures.js';
import { STRIPE_TEST_SECRET, signStripe, stripeEvent } from '../integrations/processors/stripe.payloads.js';
import { insertSite } from '../test/factories.js';
import {
  newContext,
  ON_POSTGRES,
  screenshot,
  seriousViolations,
  settled,
  useChromium,
} from './dashboard.fixtures.js';

const browser = useChromium();

describe.skipIf(ON_POSTGRES)('the payment processors settings', () => {
  const t = useProcessorTestApp();
  let site: { id: string; snippet_key: string };
  let events = 0;

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'shop-processors.example.com', name: 'Bakery' });
  });

  /** Posts a Stripe event to the connection's receiving path, signed with `secret` as Stripe signs. */
  async function sendStripeEvent(receiveUrl: string, secret: string) {
    const body = JSON.stringify(
      stripeEvent(
        'customer.created',
        { id: 'cus_1', object: 'customer' },
        { id: `evt_dashboard_${++events}`, at: t.clock.now() },
      ),
    );
    const response = await fetch(`${t.baseUrl}${new URL(receiveUrl).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signStripe(body, secret, t.clock.now()) },
      body,
    });
    return response.status;
  }

  it('connects Stripe, shows its receiving URL and deliveries, refuses a second, and disconnects', async () => {
    const context = await newContext(browser(), t.baseUrl, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.goto(`/sites/${site.id}/settings/processors`);
    await settled(page);
    expect(await page.getByRole('heading', { name: 'No processor connected' }).count()).toBe(1);
    expect(await page.getByText('/v1/server/payments').count()).toBe(1);

    // An API key pasted instead of the webhook secret: the field is named, nothing is connected.
    await page.getByLabel('Signing secret').fill('sk_live_pasted_by_mistake');
    await page.getByRole('button', { name: 'Connect Stripe' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^Signing secret: .*starts with whsec_/);
    expect(await listConnections(t, site.snippet_key)).toEqual([]);

    await page.getByLabel('Signing secret').fill(STRIPE_TEST_SECRET);
    await page.getByLabel('Label (optional)').fill('Stripe live');
    await page.getByLabel('Default currency (optional)').fill('eur');
    await page.getByRole('button', { name: 'Connect Stripe' }).click();
    const connected = page.getByRole('region', { name: 'Stripe connected' });
    await connected.waitFor();
    const [connection] = await listConnections(t, site.snippet_key);
    expect(connection).toMatchObject({ provider: 'stripe', name: 'Stripe live' });
    expect(connection?.receive_url).toMatch(/\/v1\/integrations\/stripe\/[0-9a-f-]{36}$/);
    expect((await connected.locator('pre').textContent())?.trim()).toBe(connection?.receive_url);
    expect(await connected.textContent()).toContain('Stripe must send its webhooks to this URL');
    // The test server has no PUBLIC_URL: its URL is this machine's own, which Stripe cannot reach.
    expect(new URL(connection?.receive_url ?? '').hostname).toBe('localhost');
    expect(await connected.getByRole('note').textContent()).toMatch(
      /^Stripe cannot reach this address: it is local to this machine\. Set PUBLIC_URL/,
    );
    expect(await page.content()).not.toContain(STRIPE_TEST_SECRET);
    await screenshot(page, 'settings-processors-connected');
    await connected.getByRole('button', { name: 'Done' }).click();

    // Stripe delivers: once signed with another secret (refused), once with the connection's.
    const receiveUrl = connection?.receive_url ?? '';
    expect(await sendStripeEvent(receiveUrl, 'whsec_someone_elses_secret')).toBe(400);
    expect(await sendStripeEvent(receiveUrl, STRIPE_TEST_SECRET)).toBe(200);
    await page.reload();
    await settled(page);
    const item = page.getByRole('listitem', { name: 'Stripe, Stripe live' });
    expect(await item.locator('.mono').textContent()).toBe(receiveUrl);
    expect(await item.textContent()).toContain('1 event received');
    expect(await item.locator('.processor-error').textContent()).toMatch(/^Last refused delivery \(.+\): \S/);

    await page.getByLabel('Signing secret').fill('whsec_a_second_one');
    await page.getByRole('button', { name: 'Connect Stripe' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Stripe is already connected');
    expect(await listConnections(t, site.snippet_key)).toHaveLength(1);

    expect(await seriousViolations(page)).toEqual([]);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, 'the section scrolls sideways').toBeLessThanOrEqual(0);
    await screenshot(page, 'settings-processors');

    await item.getByRole('button', { name: 'Disconnect' }).click();
    const question = item.getByRole('group', { name: /URL stops working.*payments already recorded stay/ });
    await question.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('heading', { name: 'No processor connected' }).waitFor();
    expect(await listConnections(t, site.snippet_key)).toEqual([]);
    expect(await sendStripeEvent(receiveUrl, STRIPE_TEST_SECRET)).toBe(404);
    await context.close();
  });
});
