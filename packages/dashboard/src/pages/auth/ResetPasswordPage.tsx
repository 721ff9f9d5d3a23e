/**
 * Two steps on one page: without a token, ask for a reset link by email; with the emailed link's
 * token (`/reset-password#token=…`), choose the new password.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { confirmPasswordReset, requestPasswordReset } from '../../api/account';
import { AuthFrame } from '../../components/AuthFrame';
import { Field, FormError, NewPasswordField, tokenFromHash } from '../../components/Form';

const backToSignIn = (
  <>
    Remembered it? <Link href="/login">Sign in</Link>
  </>
);

function RequestLink() {
  const [email, setEmail] = useState('');
  const submit = useMutation({ mutationFn: () => requestPasswordReset({ email }) });
  if (submit.isSuccess) {
    return (
      <AuthFrame title="Check your email" footer={backToSignIn}>
        <p>
          If an account uses {email}, a link to choose a new password is on its way. It works for one hour.
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Reset your password" footer={backToSignIn}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit.mutate();
        }}
      >
        <FormError error={submit.error} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={submit.isPending}>
          Send the link
        </button>
      </form>
    </AuthFrame>
  );
}

function ChoosePassword({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const submit = useMutation({ mutationFn: () => confirmPasswordReset({ token, password }) });
  if (submit.isSuccess) {
    return (
      <AuthFrame title="Password changed">
        <p>Your other sessions were signed out.</p>
        <Link href="/login" className="button primary">
          Sign in
        </Link>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Choose a new password" footer={backToSignIn}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit.mutate();
        }}
      >
        <FormError error={submit.error} />
        <NewPasswordField label="New password" value={password} onChange={setPassword} />
        <button type="submit" className="button primary" disabled={submit.isPending}>
          Change the password
        </button>
      </form>
    </AuthFrame>
  );
}

export default function ResetPasswordPage() {
  const [token] = useState(tokenFromHash);
  return token ? <ChoosePassword token={token} /> : <RequestLink />;
}
