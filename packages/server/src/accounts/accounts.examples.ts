/** Examples of the setup and members routes' requests and answers, for the OpenAPI document. */

export const MEMBER_ID_EXAMPLE = 'c4dab053-33fd-446c-92d0-837e55d3d3bc';

export const SETUP_EXAMPLE = {
  setup_token: 'Xq3vR8kLm2NwT5zB7cYd9Pf4Hj6Ks1Ga',
  email: 'owner@shop.example.com',
  password: 'long-and-unguessable-42',
  account_name: 'Example Shop',
};

export const SET_UP_EXAMPLE = {
  account_id: '054c106e-e8a2-4675-98a0-e01c6ba5401b',
  user_id: '7ecd75eb-188b-4b5e-a92d-bc18d86b09c7',
  api_key: 'tk_live_3f9a1c07be52d8e4a6f0c2b9d17e5a48c3b0f6e1',
};

const OWNER = {
  user_id: '7ecd75eb-188b-4b5e-a92d-bc18d86b09c7',
  email: 'owner@shop.example.com',
  role: 'admin',
  created_at: '2026-01-12T09:00:00.000Z',
};

export const MEMBER_EXAMPLE = {
  user_id: MEMBER_ID_EXAMPLE,
  email: 'maria@shop.example.com',
  role: 'member',
  created_at: '2026-02-20T14:03:12.000Z',
};

export const MEMBER_LIST_EXAMPLE = { members: [OWNER, MEMBER_EXAMPLE] };

export const ADD_MEMBER_EXAMPLE = {
  email: 'maria@shop.example.com',
  password: 'correct-horse-battery-7',
  role: 'member',
};

export const CHANGE_ROLE_EXAMPLE = { role: 'admin' };
