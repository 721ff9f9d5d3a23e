/**
 * Traffic for the report tests, sent through the front door: pageviews from ChatGPT,
 * Perplexity, Google and direct arrivals (/v1/collect, as the tracker sends them), a server
 * event and payments in USD (the site currency), then one attribution pass.
 */
import { randomBytes } from 'node:crypto';
import type { CliServer } from './harness.js';

const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const id = () => randomBytes(12).toString('base64url');

export const VISITS = [
  { ref: 'https://chatgpt.com/', pages: ['/', '/pricing'], signup: true },
  { ref: 'https://chatgpt.com/', pages: ['/blog/ai-search'], signup: false },
  { ref: 'https://chatgpt.com/', pages: ['/pricing'], signup: true },
  { ref: 'https://www.perplexity.ai/', pages: ['/docs', '/pricing'], signup: false },
  { ref: 'https://www.google.com/', pages: ['/'], signup: false },
  { ref: '', pages: ['/pricing'], signup: true },
];

export async function seedTraffic(server: CliServer): Promise<string[]> {
  const visitorIds: string[] = [];
  const collect = async (body: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/v1/collect`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': CHROME },
      body: JSON.stringify({ eid: id(), site: server.site, ...body }),
    });
    if (response.status >= 300)
      throw new Error(`collect answered ${response.status}: ${await response.text()}`);
  };
  for (const visit of VISITS) {
    const vid = id();
    visitorIds.push(vid);
    let ref = visit.ref;
    for (const page of visit.pages) {
      await collect({ type: 'pageview', vid, url: `https://shop.example.com${page}`, ref });
      ref = `https://shop.example.com${page}`;
    }
    await collect({
      type: 'engagement',
      vid,
      url: `https://shop.example.com${visit.pages.at(-1)}`,
      engaged_ms: 45_000,
    });
    if (visit.signup)
      await collect({
        type: 'event',
        vid,
        name: 'signup',
        url: 'https://shop.example.com/pricing',
        props: { plan: 'pro' },
      });
  }
  for (const [i, amount] of [1299.5, 49].entries()) {
    const paid = await server.api('POST', '/v1/server/payments', {
      site_id: server.site,
      transaction_id: `pi_seed_${i}`,
      amount,
      currency: 'USD',
      visitor_id: visitorIds[i * 2],
    });
    if (paid.status !== 202) throw new Error(`payment answered ${paid.status}`);
  }
  await server.t.app.services.attribution.runAttributionBatch({ limit: 200 });
  return visitorIds;
}
