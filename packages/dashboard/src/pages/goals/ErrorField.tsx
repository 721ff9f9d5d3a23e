/** A labelled input whose API error, when there is one, is read out with it. */
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

export function ErrorField({
  label,
  hint,
  error,
  ...input
}: { label: string; hint?: ReactNode; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="form-error field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** Which field an API error belongs to: the one it names, else `fallback`, else none (the form's). */
export function errorOnField(error: unknown, field: string, fallback?: string): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const named = (error as { field?: string }).field;
  if (named === field || (named === undefined && fallback === field)) return error.message;
  return undefined;
}
