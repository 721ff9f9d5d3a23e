/** First run: the account and its first admin, with the one-time token the server printed at start. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { login, setup } from '../../api/account';
import { AuthFrame } from '../../components/AuthFrame';
import { Field, FormError, NewPasswordField } from '../../components/Form';
import { SecretOnce } from '../../components/SecretOnce';

export default function SetupPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ setup_token: '', account_name: '', email: '', password: '' });
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm({ ...form, [key]: event.target.value });
  const submit = useMutation({
    mutationFn: async () => {
      const answer = await setup({ ...form, setup_token: form.setup_token.trim() });
      await login({ email: form.email, password: form.password });
      return answer.api_key;
    },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['me'] });
      queryClient.removeQueries({ queryKey: ['setup-status'] });
    },
  });
  // The all-scope key setup creates is shown once, like every other key.
  if (submit.data)
    return (
      <AuthFrame title="Touchtrail is set up">
        <SecretOnce title="Your account’s API key" secret={submit.data} onDone={() => navigate('/sites/new')}>
          <p className="small">
            It holds every scope (reports, sending data, settings and keys): keep it for scripts and the
            command line, and give your backend a site's own key instead.
          </p>
        </SecretOnce>
      </AuthFrame>
    );
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
