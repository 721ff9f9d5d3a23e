/**
 * A card form that creates a credential and then, in its place, shows the secret the API answers
 * once; "I have stored it" brings the empty form back.
 */
import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormError } from './Form';
import { SecretOnce } from './SecretOnce';

export interface Shown {
  heading: string;
  secretTitle: string;
  secret: string;
  note: ReactNode;
}

export function SecretOnceForm<T>({
  titleId,
  title,
  create,
  shown,
  children,
}: {
  titleId: string;
  title: string;
  create: UseMutationResult<T, Error, void>;
  shown: (created: T) => Shown;
  children: ReactNode;
}) {
  if (create.data) {
    const { heading, secretTitle, secret, note } = shown(create.data);
    return (
      <section className="card" aria-labelledby={titleId}>
        <h2 id={titleId}>{heading}</h2>
        <SecretOnce title={secretTitle} secret={secret} onDone={() => create.reset()}>
          {note}
        </SecretOnce>
      </section>
    );
  }
  return (
    <form
      className="card"
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <FormError error={create.error} />
      {children}
    </form>
  );
}
