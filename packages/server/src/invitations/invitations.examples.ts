/** Examples of the invitation routes' requests and answers, for the OpenAPI document. */

export const INVITATION_ID_EXAMPLE = 'd334a36b-3174-4167-b1ab-72ad4c79d9c4';

/** A one-time token as the link's fragment carries it: 32 random bytes, base64url. */
export const INVITATION_TOKEN_EXAMPLE = 'w4TBe0I1KSzJBofyJpKjD_4udpqNDNoOUh2WYqdrR6k';

export const INVITE_EXAMPLE = { email: 'jonas@shop.example.com', role: 'member' };

export const INVITED_EXAMPLE = {
  id: INVITATION_ID_EXAMPLE,
  email: 'jonas@shop.example.com',
  role: 'member',
  expires_at: '2026-06-22T10:30:00.000Z',
  link: `https://analytics.example.com/accept-invitation#token=${INVITATION_TOKEN_EXAMPLE}`,
};

export const INVITATION_LIST_EXAMPLE = {
  invitations: [
    {
      id: INVITATION_ID_EXAMPLE,
      email: 'jonas@shop.example.com',
      role: 'member',
      created_at: '2026-06-15T10:30:00.000Z',
      expires_at: '2026-06-22T10:30:00.000Z',
    },
    {
      id: 'dde6b4fd-21c5-4869-8ee0-c205be19b3d4',
      email: 'lea@shop.example.com',
      role: 'admin',
      created_at: '2026-06-11T08:05:00.000Z',
      expires_at: '2026-06-18T08:05:00.000Z',
    },
  ],
};

export const ACCEPT_INVITATION_EXAMPLE = {
  token: INVITATION_TOKEN_EXAMPLE,
  password: 'my-own-passphrase-19',
};

export const ACCEPTED_INVITATION_EXAMPLE = {
  user_id: '07d26606-da5a-4505-9c08-a650a16e2968',
  account_id: '054c106e-e8a2-4675-98a0-e01c6ba5401b',
  role: 'member',
};
