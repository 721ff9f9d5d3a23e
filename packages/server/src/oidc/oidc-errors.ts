/**
 * Why an OpenID Connect sign-in stopped. The callback is a browser navigation, so each reason
 * becomes a small HTML page (oidc-page.ts), not a JSON body; the words say what to do next and
 * never name a token, code or email.
 */
export type SignInFailure =
  | 'not_configured'
  | 'missing_start'
  | 'state_mismatch'
  | 'replayed'
  | 'provider_refused'
  | 'provider_unreachable'
  | 'invalid_response'
  | 'email_unverified'
  | 'invitation_invalid'
  | 'linked_elsewhere'
  | 'not_member';

const FAILURES: Record<SignInFailure, { status: number; message: string }> = {
  not_configured: { status: 404, message: 'Single sign-on is not set up on this server.' },
  missing_start: {
    status: 400,
    message: 'This sign-in expired or was started in another browser. Please start again.',
  },
  state_mismatch: {
    status: 400,
    message: 'This sign-in does not match the one this browser started. Please start again.',
  },
  replayed: { status: 400, message: 'This sign-in was already used. Please start again.' },
  provider_refused: { status: 400, message: 'The identity provider did not complete the sign-in.' },
  provider_unreachable: {
    status: 502,
    message: 'The identity provider could not be reached. Please try again in a moment.',
  },
  invalid_response: {
    status: 400,
    message: "The identity provider's answer did not pass our checks (signature, audience, time or nonce).",
  },
  email_unverified: {
    status: 403,
    message:
      'Your email address is not verified at the identity provider, so it cannot be matched to a member.',
  },
  invitation_invalid: {
    status: 400,
    message: 'This invitation is expired, used, revoked or for another email address. Ask for a new one.',
  },
  linked_elsewhere: {
    status: 403,
    message:
      'The member with this email address signs in with another account at the identity provider. Use that account.',
  },
  not_member: {
    status: 403,
    message: 'This identity is not a member of this Touchtrail server. Ask an admin to invite you.',
  },
};

export class OidcSignInError extends Error {
  readonly status: number;
  constructor(
    readonly reason: SignInFailure,
    options?: { cause?: unknown },
  ) {
    super(FAILURES[reason].message, options);
    this.status = FAILURES[reason].status;
  }
}
