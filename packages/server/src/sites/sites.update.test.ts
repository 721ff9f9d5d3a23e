/** PATCH /v1/sites/{siteId}: name, attribution model, cookie apex domain and currency. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { addSite, asKey, asSession, type CreatedSite } from './sites.fixtures.js';

describe('PATCH /v1/sites/{siteId}', () => {
  const t = useTestApp();
  let site: CreatedSite;
  let idnSite: CreatedSite;
  beforeAll(async () => {
    site = await addSite(t, asKey(t.owner.apiKey), 'shop.eu.example.co.uk');
    idnSite = await addSite(t, asKey(t.owner.apiKey), 'laden.bücher.de');
  });

  const patch = (payload: unknown, target = site) =>
    t.request({
      method: 'PATCH',
      url: `/v1/sites/${target.site_id}`,
      headers: asKey(t.owner.apiKey),
      payload: payload as object,
    });
  const currencyChosen = async () =>
    (
      await t.database.db
        .selectFrom('sites')
        .select('currency_chosen')
        .where('snippet_key', '=', site.site_id)
        .executeTakeFirstOrThrow()
    ).currency_chosen;

  it('returns the full updated site and leaves omitted fields alone', async () => {
    const response = await patch({ name: 'Shop', attribution_model: 'time_decay' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toHaveLength(15);
    expect(body).toMatchObject({
      id: site.site_id,
      name: 'Shop',
      attribution_model: 'time_decay',
      currency: 'USD',
    });
    const next = (await patch({ attribution_model: 'linear' })).json();
    expect(next).toMatchObject({ name: 'Shop', attribution_model: 'linear' });
    const read = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.site_id}`,
      headers: asKey(t.owner.apiKey),
    });
    expect(read.json()).toEqual(next);
  });

  it.each([
    ['null', null],
    ['an empty string', ''],
    ['blank spaces', '   '],
  ])('clears the name with %s', async (_case, name) => {
    await patch({ name: 'Something' });
    expect((await patch({ name })).json().name).toBeNull();
  });

  it('takes a name of exactly 60 characters and trims it', async () => {
    const name = `  ${'é'.repeat(60)}  `;
    expect((await patch({ name })).json().name).toBe('é'.repeat(60));
  });

  it.each([['first_touch'], ['last_touch'], ['linear'], ['time_decay']])(
    'accepts attribution_model %s',
    async (model) => {
      expect((await patch({ attribution_model: model })).json().attribution_model).toBe(model);
    },
  );

  it.each([
    ['the domain itself', 'shop.eu.example.co.uk', 'shop.eu.example.co.uk'],
    ['a parent below the registrable domain', 'eu.example.co.uk', 'eu.example.co.uk'],
    ['the registrable domain', 'Example.CO.uk', 'example.co.uk'],
  ])('accepts cookie_apex_domain as %s', async (_case, apex, stored) => {
    expect((await patch({ cookie_apex_domain: apex })).json().cookie_apex_domain).toBe(stored);
  });

  it('accepts an IDN cookie apex domain in Unicode and stores it as punycode', async () => {
    const body = (await patch({ cookie_apex_domain: 'Bücher.de' }, idnSite)).json();
    expect(body).toMatchObject({
      domain: 'laden.xn--bcher-kva.de',
      cookie_apex_domain: 'xn--bcher-kva.de',
      suggested_cookie_apex_domain: 'xn--bcher-kva.de',
    });
  });

  it.each([
    ['null', null],
    ['an empty string', ''],
  ])('clears cookie_apex_domain with %s', async (_case, value) => {
    await patch({ cookie_apex_domain: 'example.co.uk' });
    expect((await patch({ cookie_apex_domain: value })).json().cookie_apex_domain).toBeNull();
  });

  it.each([
    ['a public suffix', 'co.uk'],
    ['a top-level domain', 'uk'],
    ['an unrelated domain', 'example.com'],
    ['a sibling', 'us.example.co.uk'],
    ['a child of the domain', 'cdn.shop.eu.example.co.uk'],
    ['a suffix that is not a label boundary', 'ample.co.uk'],
    ['a URL', 'https://example.co.uk'],
    ['a domain with a port', 'example.co.uk:443'],
    ['spaces', ' example.co.uk'],
    ['a number', 7],
    ['an over-long string', `${'a.'.repeat(127)}uk`],
  ])('refuses cookie_apex_domain as %s with 422', async (_case, value) => {
    const response = await patch({ cookie_apex_domain: value });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'cookie_apex_domain' });
  });

  it('sets the currency, upper-cased, and records that it was chosen by hand, even for USD', async () => {
    expect(await currencyChosen()).toBe(false);
    expect((await patch({ currency: 'usd' })).json().currency).toBe('USD');
    expect(await currencyChosen()).toBe(true);
    expect((await patch({ currency: 'JPY' })).json().currency).toBe('JPY');
    expect((await patch({ currency: 'EUR' })).json().currency).toBe('EUR');
  });

  it.each([
    ['an unsupported code', 'XAU'],
    ['a code no one uses', 'ABC'],
    ['a rate the ECB dropped', 'BGN'],
    ['two letters', 'US'],
    ['digits', '840'],
    ['an empty string', ''],
    ['null', null],
    ['a number', 978],
    ['a long string', 'EURO'],
  ])('refuses currency as %s with 422', async (_case, currency) => {
    const response = await patch({ currency });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'currency' });
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown field', { domain: 'other.example' }, 'domain'],
    ['a read-only field', { snippet_key: 'ttid_0000000000000000000000' }, 'snippet_key'],
    ['a name over 60 characters', { name: 'x'.repeat(61) }, 'name'],
    ['a name of the wrong type', { name: ['Shop'] }, 'name'],
    ['an unknown attribution model', { attribution_model: 'data_driven' }, 'attribution_model'],
    ['a null attribution model', { attribution_model: null }, 'attribution_model'],
    ['an empty attribution model', { attribution_model: '' }, 'attribution_model'],
  ])('refuses %s with 422 naming the field', async (_case, payload, field) => {
    const response = await patch(payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('answers 404 to a site scheduled for deletion', async () => {
    const doomed = await addSite(t, asKey(t.owner.apiKey), 'doomed.example');
    await t.request({
      method: 'DELETE',
      url: `/v1/sites/${doomed.site_id}`,
      headers: asSession(t.owner.cookie),
      payload: { confirm_domain: 'doomed.example' },
    });
    const response = await patch({ name: 'Too late' }, doomed);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
  });
});
