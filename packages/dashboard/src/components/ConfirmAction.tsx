/**
 * A button whose action asks once more in place ("Delete? Yes / Cancel") rather than in a browser
 * dialog, so it stays reachable by keyboard and readable on a phone.
 */
import { useState } from 'react';
import { FormError } from './Form';
import './ConfirmAction.css';

export function ConfirmAction({
  label,
  question,
  confirmLabel,
  onConfirm,
  pending,
  error,
  danger = true,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  error?: unknown;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <>
        <button type="button" className={danger ? 'button danger' : 'button'} onClick={() => setAsking(true)}>
          {label}
        </button>
        <FormError error={error} />
      </>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question with its two answers, not a form fieldset
    <span className="confirm" role="group" aria-label={question}>
      <span className="small">{question}</span>
      <button
        type="button"
        className={danger ? 'button danger' : 'button primary'}
        disabled={pending}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
