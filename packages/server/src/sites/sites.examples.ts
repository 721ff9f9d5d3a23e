/** Examples of the sites routes' requests and answers, for the OpenAPI document (each parses with its schema). */

export const SNIPPET_KEY_EXAMPLE = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';

export const SITE_EXAMPLE = {
  id: SNIPPET_KEY_EXAMPLE,
  name: 'Shop',
  domain: 'shop.example.com',
  snippet_key: SNIPPET_KEY_EXAMPLE,
  region: 'eu',
  attribution_model: 'last_touch',
  cookie_apex_domain: null,
  suggested_cookie_apex_domain: 'example.com',
  currency: 'EUR',
  created_at: '2026-03-02T09:14:27.512Z',
  verified_at: '2026-03-02T09:31:05.118Z',
  deleted_at: null,
  deletion_effective_at: null,
  events_retention_days: null,
  visits_retention_days: null,
};

export const SITE_LIST_EXAMPLE = {
  sites: [
    SITE_EXAMPLE,
    {
      ...SITE_EXAMPLE,
      id: 'ttid_9XbLm2QwE7rTz4KpYs1VnH',
      snippet_key: 'ttid_9XbLm2QwE7rTz4KpYs1VnH',
      name: null,
      domain: 'docs.example.com',
      region: 'us',
      attribution_model: 'first_touch',
      currency: 'USD',
      created_at: '2026-01-19T16:40:02.007Z',
      verified_at: null,
    },
  ],
};

export const CREATE_SITE_EXAMPLE = {
  domain: 'blog.example.org',
  name: 'Company blog',
  region: 'eu',
  currency: 'EUR',
};

export const CREATED_SITE_EXAMPLE = {
  site_id: 'ttid_3JrdGe4OWUVVRUzxHUwfDJ',
  snippet_key: 'ttid_3JrdGe4OWUVVRUzxHUwfDJ',
  domain: 'blog.example.org',
  name: 'Company blog',
  region: 'eu',
  cookie_apex_domain: null,
  suggested_cookie_apex_domain: 'example.org',
  api_key: 'tk_live_f0b12db04ba90c87891b9d40afda69093a227083',
  created_at: '2026-04-11T08:02:44.930Z',
};

export const UPDATE_SITE_EXAMPLE = {
  attribution_model: 'time_decay',
  cookie_apex_domain: 'example.com',
  currency: 'EUR',
  events_retention_days: 90,
  visits_retention_days: 180,
};

export const UPDATED_SITE_EXAMPLE = {
  ...SITE_EXAMPLE,
  attribution_model: 'time_decay',
  cookie_apex_domain: 'example.com',
  events_retention_days: 90,
  visits_retention_days: 180,
};

export const DELETE_SITE_EXAMPLE = { confirm_domain: 'shop.example.com' };

export const DELETION_EXAMPLE = {
  status: 'deletion_scheduled',
  site_id: SNIPPET_KEY_EXAMPLE,
  domain: 'shop.example.com',
  requested_at: '2026-05-04T10:00:00.000Z',
  effective_at: '2026-06-03T10:00:00.000Z',
  window_days: 30,
};

export const RESTORED_EXAMPLE = {
  status: 'active',
  site_id: SNIPPET_KEY_EXAMPLE,
  domain: 'shop.example.com',
};

export const DASHBOARD_SITES_EXAMPLE = {
  sites: [
    {
      uuid: '9016b294-89f4-49a9-861c-9bf7e137ce3b',
      snippet_key: SNIPPET_KEY_EXAMPLE,
      domain: 'shop.example.com',
      name: 'Shop',
      deleted_at: null,
    },
    {
      uuid: '0fc878fd-6fb6-4693-bfb6-e0376eda47ad',
      snippet_key: 'ttid_9XbLm2QwE7rTz4KpYs1VnH',
      domain: 'docs.example.com',
      name: null,
      deleted_at: '2026-05-20T13:22:10.000Z',
    },
  ],
};
