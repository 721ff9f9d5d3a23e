/**
 * A site's shared links: make one (optionally with a password) and see its URL once, with the
 * code to embed it in an iframe; list and revoke them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SHARED_LINK_PASSWORD_MIN_LENGTH } from '@touchtrail/client';
import { useState } from 'react';
import { createSharedLink, listSharedLinks, revokeSharedLink } from '../../api/shared-links';
import { CopyButton } from '../../components/CopyButton';
import { Field, FormError } from '../../components/Form';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../lib/format';

function NewLink({ siteId }: { siteId: string }) {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const create = useMutation({
    mutationFn: () =>
      createSharedLink(siteId, { label: label.trim() || undefined, password: password || undefined }),
    onSuccess: () => {
      setLabel('');
      setPassword('');
      return queryClient.invalidateQueries({ queryKey: ['shared-links', siteId] });
    },
  });
  const made = create.data;
  const embed =
    made &&
    `<iframe src="${made.url}" title="Traffic" style="width:100%;height:1600px;border:0" loading="lazy"></iframe>`;
  return (
    <div style={{ marginTop: '1.25rem' }}>
      <h3>Make a link</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <FormError error={create.error} />
        <Field
          label="Label"
          name="label"
          maxLength={100}
          placeholder="Investors"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
        />
        <Field
          label="Password (optional)"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={SHARED_LINK_PASSWORD_MIN_LENGTH}
          hint={`At least ${SHARED_LINK_PASSWORD_MIN_LENGTH} characters. Whoever opens the link is asked for it.`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={create.isPending}>
          Make a shared link
        </button>
      </form>
      {made && embed && (
        <div className="notice" style={{ marginTop: '1rem' }} role="status">
          <p>
            <strong>Shown once.</strong> Copy the link now: it cannot be shown again (revoke it and make
            another if it is lost).
          </p>
          <textarea className="snippet" aria-label="Shared link" readOnly rows={2} value={made.url} />
          <CopyButton text={made.url} label="Copy the link" />
          <p className="small">To embed the reports in a page of your own:</p>
          <textarea className="snippet" aria-label="Embed code" readOnly rows={3} value={embed} />
          <CopyButton text={embed} label="Copy the embed code" />
        </div>
      )}
    </div>
  );
}

export function SharedLinksSettings({ siteId }: { siteId: string }) {
  const queryClient = useQueryClient();
  const links = useQuery({ queryKey: ['shared-links', siteId], queryFn: () => listSharedLinks(siteId) });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeSharedLink(siteId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['shared-links', siteId] }),
  });
  const live = (links.data ?? []).filter((link) => !link.revoked_at);
  return (
    <section className="card" aria-label="Shared links">
      <h2>Shared links</h2>
      <p className="muted small">
        A shared link shows this site’s traffic reports to anyone who has it, without signing in: visitors,
        sources, pages, places and devices. Never goals, conversions, revenue, people or settings.
      </p>
      {links.isPending ? (
        <SkeletonRows rows={2} />
      ) : links.isError ? (
        <ErrorState error={links.error} retry={() => links.refetch()} />
      ) : live.length === 0 ? (
        <EmptyState title="No shared links">
          <p className="muted small">Make one below to show the reports to people outside your account.</p>
        </EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="data">
            <caption className="visually-hidden">Shared links</caption>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Starts with</th>
                <th scope="col">Password</th>
                <th scope="col">Made</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {live.map((link) => (
                <tr key={link.id}>
                  <th scope="row">{link.label}</th>
                  <td className="mono">{link.prefix}…</td>
                  <td>{link.has_password ? 'Yes' : 'No'}</td>
                  <td>{formatDateTime(link.created_at)}</td>
                  <td>
                    <button
                      type="button"
                      className="button danger"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(link.id)}
                      aria-label={`Revoke ${link.label}`}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <FormError error={revoke.error} />
      <NewLink siteId={siteId} />
    </section>
  );
}
