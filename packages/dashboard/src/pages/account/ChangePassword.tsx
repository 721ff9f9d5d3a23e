/** Changing the password; the server signs out every other session of the person when it changes. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PASSWORD_MIN_LENGTH } from '@touchtrail/client';
import { useState } from 'react';
import { changePassword } from '../../api/account-admin';
import { Field, FormError } from '../../components/Form';

export function ChangePassword() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const mismatch = again !== '' && again !== next;
  const change = useMutation({
    mutationFn: () => changePassword({ current_password: current, new_password: next }),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setAgain('');
      queryClient.invalidateQueries({ queryKey: ['my-sessions'] });
    },
  });
  return (
    <form
      className="card"
      aria-labelledby="password-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (!mismatch) change.mutate();
      }}
    >
      <h2 id="password-title">Change the password</h2>
      <FormError error={change.error} />
      {change.isSuccess && (
        <p className="small" role="status">
          Password changed. Your other sessions were signed out.
        </p>
      )}
      <Field
        label="Current password"
        name="current-password"
        type="password"
        autoComplete="current-password"
        required
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <Field
        label="New password"
        name="new-password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        value={next}
        onChange={(e) => setNext(e.target.value)}
      />
      <Field
        label="New password again"
        name="new-password-again"
        type="password"
        autoComplete="new-password"
        required
        aria-invalid={mismatch}
        hint={mismatch ? 'The two new passwords differ.' : undefined}
        value={again}
        onChange={(e) => setAgain(e.target.value)}
      />
      <button type="submit" className="button primary" disabled={mismatch || change.isPending}>
        Change the password
      </button>
    </form>
  );
}
