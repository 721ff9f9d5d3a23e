/** First run: the account and its first admin, with the one-time token the server printed at start. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { login, setup } from '../../api/account';
import { AuthFrame } from '../../components/AuthFrame';
import { Field, FormError, NewPasswordField } from '../../components/Form';

export default function SetupPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ setup_token: '', account_name: '', email: '', password: '' });
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm({ ...form, [key]: event.target.value });
  const submit = useMutation({
    mutationFn: async () => {
      await setup({ ...form, setup_token: form.setup_token.trim() });
      await login({ email: form.email, password: form.password });
    },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['me'] });
      navigate('/sites/new');
    },
  });
  return (
    <AuthFrame
      title="Set up Touchtrail"
      footer={
        <>
          Already set up? <Link href="/login">Sign in</Link>
        </>
      }
    >
      <p className="muted small">
        The server printed a setup token when it first started (look for “setup token” in its output). It
        works once.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit.mutate();
        }}
      >
        <FormError error={submit.error} />
        <Field
          label="Setup token"
          name="setup_token"
          autoComplete="off"
          required
          value={form.setup_token}
          onChange={set('setup_token')}
        />
        <Field
          label="Account name"
          name="account_name"
          placeholder="Your company"
          required
          maxLength={120}
          value={form.account_name}
          onChange={set('account_name')}
        />
        <Field
          label="Your email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={form.email}
          onChange={set('email')}
        />
        <NewPasswordField
          label="Password"
          value={form.password}
          onChange={(value) => setForm({ ...form, password: value })}
        />
        <button type="submit" className="button primary" disabled={submit.isPending}>
          Create the account
        </button>
      </form>
    </AuthFrame>
  );
}
