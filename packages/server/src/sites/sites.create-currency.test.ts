/** POST /v1/sites with `currency`: the same rules as PATCH, recorded as chosen by hand (§4.2). */
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { asKey, postSite } from './sites.fixtures.js';

describe('POST /v1/sites with a currency', () => {
  const t = useTestApp();
  let sites = 0;
  const nextDomain = () => `currency-${++sites}.example`;

  const storedCurrency = (snippetKey: string) =>
    t.database.db
      .selectFrom('sites')
      .select(['currency', 'currency_chosen'])
      .where('snippet_key', '=', snippetKey)
      .executeTakeFirst();

  const readSite = async (snippetKey: string) =>
    (
      await t.request({ method: 'GET', url: `/v1/sites/${snippetKey}`, headers: asKey(t.owner.apiKey) })
    ).json();

  it('stores a given currency upper-cased and records that it was chosen by hand', async () => {
    for (const [sent, stored] of [
      ['EUR', 'EUR'],
      ['jpy', 'JPY'],
      ['Usd', 'USD'],
    ]) {
      const response = await postSite(t, asKey(t.owner.apiKey), { domain: nextDomain(), currency: sent });
      expect(response.statusCode).toBe(201);
      const { site_id } = response.json();
      expect((await readSite(site_id)).currency).toBe(stored);
      // Even the default, sent explicitly, is a hand-made choice a processor must not override.
      expect(await storedCurrency(site_id)).toEqual({ currency: stored, currency_chosen: true });
    }
  });

  it('leaves a site created without one at USD, not chosen by hand', async () => {
    const response = await postSite(t, asKey(t.owner.apiKey), { domain: nextDomain() });
    expect(response.statusCode).toBe(201);
    const { site_id } = response.json();
    expect(await storedCurrency(site_id)).toEqual({ currency: 'USD', currency_chosen: false });
  });

  it.each([
    ['an unsupported code', 'XAU'],
    ['a code no one uses', 'ABC'],
    ['two letters', 'US'],
    ['digits', '840'],
    ['an empty string', ''],
    ['a long string', 'EURO'],
    ['null', null],
    ['a number', 978],
    ['an array', ['EUR']],
  ])('refuses currency as %s with 422 and creates nothing', async (_case, currency) => {
    const domain = nextDomain();
    const response = await postSite(t, asKey(t.owner.apiKey), { domain, currency });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'currency' });
    const created = await t.database.db
      .selectFrom('sites')
      .select('id')
      .where('domain', '=', domain)
      .executeTakeFirst();
    expect(created).toBeUndefined();
  });
});
