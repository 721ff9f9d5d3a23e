/** Small form parts shared by every form: a labelled field and the error line of a failed submit. */
import { PASSWORD_MIN_LENGTH } from '@touchtrail/client';
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

export function Field({
  label,
  hint,
  ...input
}: { label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

/** Where to go after signing in: `?next=` when it is a path of this app, else the sites. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/sites';
}

/** The one-time token of an emailed link, carried in the fragment (`#token=…`). */
export function tokenFromHash(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

export function NewPasswordField({
  label,
  value,
  onChange,
  name = 'password',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  name?: string;
}) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN_LENGTH}
      hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
