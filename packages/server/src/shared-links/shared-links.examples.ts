/** Examples of the shared link routes' requests and answers, for the OpenAPI document. */

export const LINK_ID_EXAMPLE = '9f3e2c1a-6b4d-4e8f-a2c7-5d1b0e9f8a34';

/** A link's token: `tts_` and 32 random bytes, base64url. */
const LINK_TOKEN_EXAMPLE = 'tts_7atjqJ6zmabYaguAL0VqDkECBU99MuCRttXKHmB6DOU';

export const LINK_EXAMPLE = {
  id: LINK_ID_EXAMPLE,
  label: 'Investor update',
  prefix: 'tts_7atjqJ',
  has_password: true,
  created_at: '2026-06-02T15:45:00.000Z',
  revoked_at: null,
};

export const LINK_LIST_EXAMPLE = {
  shared_links: [
    LINK_EXAMPLE,
    {
      id: '3b8d7e52-0c4a-4f19-9e6b-2a7c1d5f0e83',
      label: 'Shared link',
      prefix: 'tts_Qm4xZ0',
      has_password: false,
      created_at: '2026-04-18T09:10:00.000Z',
      revoked_at: '2026-05-30T12:00:00.000Z',
    },
  ],
};

export const CREATE_LINK_EXAMPLE = { label: 'Investor update', password: 'board-meeting-june' };

export const CREATED_LINK_EXAMPLE = {
  ...LINK_EXAMPLE,
  url: `https://analytics.example.com/share#${LINK_TOKEN_EXAMPLE}`,
};

export const OPEN_LINK_EXAMPLE = { token: LINK_TOKEN_EXAMPLE, password: 'board-meeting-june' };

export const OPENED_LINK_EXAMPLE = {
  access_token: 'ttsa_gi-0FH5tx9SZM6VO73xikWw8cu7CFfo6VtgykFpGAsA',
  expires_at: '2026-06-15T21:30:00.000Z',
  site: { id: 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed', name: 'Shop', domain: 'shop.example.com', currency: 'EUR' },
};
