/** Examples of the password reset routes' requests and answers, for the OpenAPI document. */

/** A one-time token as the link's fragment carries it: 32 random bytes, base64url. */
const RESET_TOKEN_EXAMPLE = 'NxSMatXY68RgbvvR5OQBGfPgn2k5dEt8cPg7x1gpppc';

export const MEMBER_ID_EXAMPLE = 'c4dab053-33fd-446c-92d0-837e55d3d3bc';

export const REQUEST_RESET_EXAMPLE = { email: 'maria@shop.example.com' };

export const CONFIRM_RESET_EXAMPLE = { token: RESET_TOKEN_EXAMPLE, password: 'a-fresh-passphrase-88' };

export const MEMBER_RESET_LINK_EXAMPLE = {
  link: `https://analytics.example.com/reset-password#token=${RESET_TOKEN_EXAMPLE}`,
  expires_at: '2026-06-15T11:30:00.000Z',
};
