/** Examples of the funnels routes' requests and answers for the OpenAPI document; each parses with its schema. */

const SITE_KEY = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';
export const FUNNEL_ID_EXAMPLE = '6f1c1e8e-4f5a-4c1e-9a53-2b8f0d1e7c44';

const stepsExample = [
  { type: 'page', match: 'matches', value: '/blog/*' },
  { type: 'page', match: 'is', value: '/pricing' },
  { type: 'event', name: 'signup', property: { key: 'plan', value: 'pro' } },
];

export const createFunnelExample = { site_id: SITE_KEY, name: 'Blog to pro signup', steps: stepsExample };

export const updateFunnelExample = { site_id: SITE_KEY, window_hours: 72 };

export const funnelExample = {
  id: FUNNEL_ID_EXAMPLE,
  site_id: SITE_KEY,
  name: 'Blog to pro signup',
  steps: stepsExample,
  window_hours: 168,
  created_at: '2026-11-02T09:14:00.000Z',
  updated_at: '2026-11-02T09:14:00.000Z',
};

export const funnelListExample = { funnels: [funnelExample] };

export const funnelAnswerExample = { funnel: funnelExample };

export const updatedFunnelAnswerExample = {
  funnel: { ...funnelExample, window_hours: 72, updated_at: '2026-11-25T16:03:27.512Z' },
};

export const funnelQueryExample = {
  site_id: SITE_KEY,
  steps: stepsExample,
  window_hours: 72,
  date_range: '30d',
  timezone: 'Europe/Berlin',
  breakdown: 'visit:channel',
  filters: [['is', 'visit:country', ['DE', 'AT']]],
};

export const funnelReportExample = {
  steps: [
    {
      index: 1,
      label: '/blog/*',
      visitors: 1200,
      conversion_from_previous: 100,
      conversion_from_first: 100,
      drop_off: 0,
      median_seconds_to_next: 95,
    },
    {
      index: 2,
      label: '/pricing',
      visitors: 300,
      conversion_from_previous: 25,
      conversion_from_first: 25,
      drop_off: 900,
      median_seconds_to_next: 3600,
    },
    {
      index: 3,
      label: 'signup (plan = pro)',
      visitors: 45,
      conversion_from_previous: 15,
      conversion_from_first: 3.8,
      drop_off: 255,
      median_seconds_to_next: null,
    },
  ],
  breakdown: null,
  meta: { date_range: ['2026-10-27', '2026-11-25'], window_hours: 72 },
};
