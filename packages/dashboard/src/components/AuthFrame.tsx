import type { ReactNode } from 'react';

/** The narrow centred card of the sign-in, setup, invitation and reset pages. */
export function AuthFrame({
  title,
  children,
  footer,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="auth">
      <div className="brand">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        Touchtrail
      </div>
      <div className="card">
        <h1>{title}</h1>
        {children}
      </div>
      {footer && <div className="alt">{footer}</div>}
    </main>
  );
}
