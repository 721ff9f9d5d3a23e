/**
 * `acceptForIdentity`, the invitation path of OpenID Connect sign-in: the provider's verified
 * email must equal the invitation's (in any case); the person is created without a password.
 * Every refusal is the accept route's 400 `invalid_token`.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import { DAY_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { acceptInvitation, invited, NEW_PASSWORD, revokeInvitation } from './invitations.fixtures.js';

describe('accepting an invitation for a verified identity', () => {
  const t = useTestApp();
  const acceptForIdentity = (input: { token: string; email: string }) =>
    t.app.services.invitations.acceptForIdentity(input);
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('creates the member without a password, with the role, and spends the invitation', async () => {
    const invitation = await invited(t, t.owner.cookie, 'sso.person@example.com', 'admin');
    const member = await acceptForIdentity({ token: invitation.token, email: 'SSO.Person@Example.COM' });
    expect(member).toEqual({ userId: expect.any(String), accountId: t.owner.accountId, role: 'admin' });
    const user = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', member.userId)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: 'sso.person@example.com', password_hash: null });
    const again = await refusal(
      acceptForIdentity({ token: invitation.token, email: 'sso.person@example.com' }),
    );
    expect(again).toMatchObject({ status: 400, code: 'invalid_token' });
    const byPassword = await acceptInvitation(t, { token: invitation.token, password: NEW_PASSWORD });
    expect(byPassword.statusCode).toBe(400);
  });

  it('refuses another email, and unknown, revoked or expired tokens, with the same 400', async () => {
    const invitation = await invited(t, t.owner.cookie, 'meant-for@example.com');
    const revoked = await invited(t, t.owner.cookie, 'revoked-sso@example.com');
    await revokeInvitation(t, { cookie: t.owner.cookie }, revoked.id);
    const expiring = await invited(t, t.owner.cookie, 'expired-sso@example.com');
    const errors = [
      await refusal(acceptForIdentity({ token: invitation.token, email: 'someone-else@example.com' })),
      await refusal(acceptForIdentity({ token: 'u'.repeat(43), email: 'meant-for@example.com' })),
      await refusal(acceptForIdentity({ token: revoked.token, email: 'revoked-sso@example.com' })),
    ];
    t.clock.advance(7 * DAY_MS);
    errors.push(
      await refusal(acceptForIdentity({ token: expiring.token, email: 'expired-sso@example.com' })),
    );
    for (const error of errors) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_token' });
    }
    const users = await t.database.db
      .selectFrom('users')
      .select('email')
      .where('email', 'in', ['someone-else@example.com', 'meant-for@example.com', 'expired-sso@example.com'])
      .execute();
    expect(users).toEqual([]);
  });
});
