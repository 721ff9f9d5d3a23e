/** A secret the API answers once: shown with a copy button and a plain warning, until dismissed. */
import { type ReactNode, useEffect, useRef } from 'react';
import { CopyButton } from './CopyButton';
import './SecretOnce.css';

export function SecretOnce({
  title,
  secret,
  children,
  onDone,
}: {
  title: string;
  secret: string;
  children?: ReactNode;
  onDone: () => void;
}) {
  // Brought into view and announced: it may appear below a long list.
  const box = useRef<HTMLElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <section className="notice secret-once" aria-label={title} tabIndex={-1} ref={box}>
      <h3>{title}</h3>
      <p className="small">
        <strong>Shown once.</strong> Copy it now and keep it somewhere safe: it cannot be shown again.
      </p>
      <pre className="snippet mono">{secret}</pre>
      {children}
      <div className="row">
        <CopyButton text={secret} label="Copy" />
        <button type="button" className="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}
