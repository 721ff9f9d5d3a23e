/** Examples of the sign-in and session routes' requests and answers, for the OpenAPI document. */

export const SESSION_ID_EXAMPLE = '6c9d5fc6-a996-445c-9979-bbaa84b9555b';

export const LOGIN_EXAMPLE = { email: 'maria@shop.example.com', password: 'correct-horse-battery-7' };

export const SIGNED_IN_EXAMPLE = {
  user_id: 'c4dab053-33fd-446c-92d0-837e55d3d3bc',
  account_id: '054c106e-e8a2-4675-98a0-e01c6ba5401b',
  role: 'member',
};

export const ME_EXAMPLE = {
  user: { id: 'c4dab053-33fd-446c-92d0-837e55d3d3bc', email: 'maria@shop.example.com', second_factor: true },
  role: 'member',
  account: {
    id: '054c106e-e8a2-4675-98a0-e01c6ba5401b',
    name: 'Example Shop',
    plan: 'self_hosted',
    site_limit: 50,
    region: 'eu',
  },
};

export const SESSION_LIST_EXAMPLE = {
  sessions: [
    {
      id: '54cb6805-e418-43cf-80b3-e9c22bc5bb97',
      current: true,
      created_at: '2026-06-15T07:58:02.000Z',
      last_used_at: '2026-06-15T09:12:40.000Z',
      user_agent:
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1.15',
    },
    {
      id: SESSION_ID_EXAMPLE,
      current: false,
      created_at: '2026-06-09T18:20:11.000Z',
      last_used_at: '2026-06-12T21:03:55.000Z',
      user_agent: 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0',
    },
  ],
};

export const CHANGE_PASSWORD_EXAMPLE = {
  current_password: 'correct-horse-battery-7',
  new_password: 'staple-lantern-orbit-31',
};
