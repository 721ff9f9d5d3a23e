/** Examples of the goals routes' requests and answers for the OpenAPI document; each parses with its schema. */

export const SITE_KEY_EXAMPLE = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';
export const GOAL_ID_EXAMPLE = '4b8e2f1a-9c3d-4e5f-8a7b-6c5d4e3f2a1b';
export const GOAL_NAME_EXAMPLE = 'signup';

const signupGoal = {
  id: GOAL_ID_EXAMPLE,
  site_id: SITE_KEY_EXAMPLE,
  name: GOAL_NAME_EXAMPLE,
  display_name: 'Sign-up',
  emoji: '🎉',
  sort_order: 0,
  created_at: '2026-09-14T08:02:11.417Z',
  archived_at: null,
};

const demoGoal = {
  id: '9d1c7b3e-2a4f-4c6d-8e0f-1a2b3c4d5e6f',
  site_id: SITE_KEY_EXAMPLE,
  name: 'demo_booked',
  display_name: null,
  emoji: null,
  sort_order: 1,
  created_at: '2026-10-02T15:40:57.003Z',
  archived_at: null,
};

export const goalListExample = { goals: [signupGoal, demoGoal] };

export const createGoalExample = {
  site_id: SITE_KEY_EXAMPLE,
  name: 'trial_started',
  display_name: 'Trial started',
  emoji: '🚀',
  sort_order: 2,
};

export const createdGoalExample = {
  goal: {
    ...createGoalExample,
    id: '2f6a9e4c-7b1d-4d3e-a5f8-0c9b8a7d6e5f',
    created_at: '2026-11-25T10:21:44.902Z',
    archived_at: null,
  },
};

export const updateGoalExample = { site_id: SITE_KEY_EXAMPLE, display_name: 'Account created', emoji: '✅' };

export const updatedGoalExample = {
  goal: { ...signupGoal, display_name: 'Account created', emoji: '✅' },
};

export const siteBodyExample = { site_id: SITE_KEY_EXAMPLE };

export const unarchivedGoalExample = { goal: signupGoal };

export const timeseriesExample = {
  from: '2026-11-19',
  to: '2026-11-25',
  series: [
    {
      goal_name: 'signup',
      points: [
        { date: '2026-11-19', completions: 14 },
        { date: '2026-11-20', completions: 9 },
        { date: '2026-11-23', completions: 21 },
        { date: '2026-11-25', completions: 6 },
      ],
      total: 50,
      conversion_rate: 3.2,
      value: 0,
    },
    {
      goal_name: 'demo_booked',
      points: [{ date: '2026-11-24', completions: 3 }],
      total: 3,
      conversion_rate: 0.2,
      value: 45000,
    },
  ],
  currency: 'EUR',
  unconverted: [],
};

export const propertiesExample = {
  from: '2026-11-19',
  to: '2026-11-25',
  goal_name: 'signup',
  properties: [
    {
      key: 'plan',
      values: [
        { value: 'pro', count: 31 },
        { value: 'starter', count: 19 },
      ],
    },
    { key: 'referral_code', values: [{ value: 'launch26', count: 7 }] },
  ],
};
