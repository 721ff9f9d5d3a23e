/**
 * The second factor: setting up an authenticator app (a QR code to scan, the secret to type or URI to open, a first code
 * to confirm, then the recovery codes shown once) and turning it off with a code.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meQuery } from '../../api/account';
import { beginTotp, confirmTotp, removeTotp } from '../../api/account-admin';
import { CopyButton } from '../../components/CopyButton';
import { Field, FormError } from '../../components/Form';
import { QrCode } from '../../components/QrCode';

/** "JBSW Y3DP EHPK 3PXP": groups of four are easier to type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section className="notice secret-once" aria-label="Recovery codes">
      <h3>Two-factor sign-in is on</h3>
      <p className="small">
        <strong>Recovery codes, shown once.</strong> Each one signs you in once if you lose your phone. Keep
        them somewhere safe.
      </p>
      <ol className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="row">
        <CopyButton text={codes.join('\n')} label="Copy the codes" />
        <button type="button" className="button" onClick={onDone}>
          I have stored them
        </button>
      </div>
    </section>
  );
}

function Enrol({ onEnrolled }: { onEnrolled: () => void }) {
  const [code, setCode] = useState('');
  const begin = useMutation({ mutationFn: beginTotp });
  const confirm = useMutation({ mutationFn: () => confirmTotp(code.trim()), onSuccess: () => setCode('') });
  if (confirm.data) {
    return (
      <RecoveryCodes
        codes={confirm.data.recovery_codes}
        onDone={() => {
          confirm.reset();
          begin.reset();
          onEnrolled();
        }}
      />
    );
  }
  if (!begin.data) {
    return (
      <div>
        <h3>Set up an authenticator app</h3>
        <p className="small muted">
          After your password, sign-in will ask for the 6-digit code of an app such as 1Password, Google
          Authenticator or Aegis.
        </p>
        <FormError error={begin.error} />
        <button
          type="button"
          className="button primary"
          disabled={begin.isPending}
          onClick={() => begin.mutate()}
        >
          Set up two-factor sign-in
        </button>
      </div>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        confirm.mutate();
      }}
    >
      <h3>Add Touchtrail to your app</h3>
      <p className="small">
        Scan this code with the app, or type the key below into it (as a time-based code):
      </p>
      <QrCode
        text={begin.data.otpauth_uri}
        label="QR code of the authenticator set-up link; the same key is written out below"
      />
      <p className="mono totp-secret">{grouped(begin.data.secret)}</p>
      <div className="row" style={{ marginBottom: '0.8rem' }}>
        <CopyButton text={begin.data.secret} label="Copy the key" />
        <a className="button" href={begin.data.otpauth_uri}>
          Open in an authenticator app
        </a>
      </div>
      <FormError error={confirm.error} />
      <Field
        label="6-digit code from the app"
        name="totp-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="\d{6}"
        maxLength={6}
        required
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
      />
      <div className="row">
        <button type="submit" className="button primary" disabled={code.length !== 6 || confirm.isPending}>
          Turn on
        </button>
        <button type="button" className="button" onClick={() => begin.reset()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function TurnOff({ onRemoved }: { onRemoved: () => void }) {
  const [code, setCode] = useState('');
  const remove = useMutation({
    mutationFn: () => removeTotp(code.trim()),
    onSuccess: () => {
      setCode('');
      onRemoved();
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        remove.mutate();
      }}
    >
      <p role="status">
        <strong>On.</strong> Sign-in asks for a code from your authenticator app after the password.
      </p>
      <h3>Turn two-factor sign-in off</h3>
      <p className="small muted">One more code is needed to turn it off.</p>
      <FormError error={remove.error} />
      <Field
        label="A code from the app, or a recovery code"
        name="totp-off-code"
        autoComplete="one-time-code"
        required
        maxLength={64}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <button type="submit" className="button danger" disabled={!code.trim() || remove.isPending}>
        Turn off
      </button>
    </form>
  );
}

/** Set-up while it is off, turning off while it is on (the signed-in person's `second_factor`). */
export function TwoFactor() {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const [turnedOff, setTurnedOff] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['me'] });
  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {me.data?.user.second_factor ? (
        <TurnOff
          onRemoved={() => {
            setTurnedOff(true);
            refresh();
          }}
        />
      ) : (
        <>
          {turnedOff && (
            <p className="small" role="status">
              Two-factor sign-in is off: your password alone signs you in.
            </p>
          )}
          <Enrol
            onEnrolled={() => {
              setTurnedOff(false);
              refresh();
            }}
          />
        </>
      )}
    </section>
  );
}
