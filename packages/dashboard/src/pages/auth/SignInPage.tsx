/** Sign in with email and password, then the second factor when enrolled, or with the OpenID provider. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { type LoginAnswer, login, loginSecondFactor, providersQuery } from '../../api/account';
import { AuthFrame } from '../../components/AuthFrame';
import { Field, FormError, nextPath } from '../../components/Form';

function SecondFactorForm({ onDone }: { onDone: () => void }) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const submit = useMutation({
    mutationFn: () => loginSecondFactor(useRecovery ? { recovery_code: code.trim() } : { code: code.trim() }),
    onSuccess: onDone,
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit.mutate();
      }}
    >
      <p className="muted">Your account has two-factor sign-in.</p>
      <FormError error={submit.error} />
      {useRecovery ? (
        <Field
          label="Recovery code"
          name="recovery_code"
          autoComplete="off"
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      ) : (
        <Field
          label="Code from your authenticator app"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\d{6}"
          maxLength={6}
          required
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      )}
      <button type="submit" className="button primary" disabled={submit.isPending}>
        Verify
      </button>{' '}
      <button
        type="button"
        className="link-button"
        onClick={() => {
          setUseRecovery(!useRecovery);
          setCode('');
        }}
      >
        {useRecovery ? 'Use a code from the app' : 'Use a recovery code'}
      </button>
    </form>
  );
}

export default function SignInPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const providers = useQuery(providersQuery);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [needsSecondFactor, setNeedsSecondFactor] = useState(false);
  const done = () => {
    // The cached "nobody signed in" must not send the next page straight back here.
    queryClient.removeQueries({ queryKey: ['me'] });
    navigate(nextPath(search));
  };
  const submit = useMutation({
    mutationFn: () => login({ email, password }),
    onSuccess: (answer: LoginAnswer) =>
      'second_factor_required' in answer ? setNeedsSecondFactor(true) : done(),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };
  const oidc = providers.data?.oidc;
  return (
    <AuthFrame
      title="Sign in"
      footer={
        <>
          First time here? <Link href="/setup">Set up Touchtrail</Link> with the token the server printed.
        </>
      }
    >
      {needsSecondFactor ? (
        <SecondFactorForm onDone={done} />
      ) : (
        <>
          <form onSubmit={onSubmit}>
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
            <Field
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button type="submit" className="button primary" disabled={submit.isPending}>
              Sign in
            </button>{' '}
            <Link href="/reset-password" className="small">
              Forgot your password?
            </Link>
          </form>
          {oidc && (
            <>
              <div className="divider">or</div>
              <a className="button" href={oidc.start_url} style={{ width: '100%', justifyContent: 'center' }}>
                Continue with {oidc.name}
              </a>
            </>
          )}
        </>
      )}
    </AuthFrame>
  );
}
