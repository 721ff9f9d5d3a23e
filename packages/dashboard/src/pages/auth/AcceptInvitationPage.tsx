/** The page an invitation email links to (`/accept-invitation#token=…`): choose a password and join. */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { acceptInvitation } from '../../api/account';
import { AuthFrame } from '../../components/AuthFrame';
import { FormError, NewPasswordField, tokenFromHash } from '../../components/Form';

export default function AcceptInvitationPage() {
  const [token] = useState(tokenFromHash);
  const [password, setPassword] = useState('');
  const submit = useMutation({ mutationFn: () => acceptInvitation({ token, password }) });
  if (!token) {
    return (
      <AuthFrame title="Accept the invitation">
        <p>This link has no invitation in it. Open the link from the invitation email again, whole.</p>
      </AuthFrame>
    );
  }
  if (submit.isSuccess) {
    return (
      <AuthFrame title="You have joined">
        <p>Your account is ready.</p>
        <Link href="/login" className="button primary">
          Sign in
        </Link>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Accept the invitation">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit.mutate();
        }}
      >
        <FormError error={submit.error} />
        <NewPasswordField label="Choose a password" value={password} onChange={setPassword} />
        <button type="submit" className="button primary" disabled={submit.isPending}>
          Join
        </button>
      </form>
    </AuthFrame>
  );
}
