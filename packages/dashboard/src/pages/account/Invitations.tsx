/**
 * Inviting a person by email, and the invitations not yet accepted. Without email sending set up,
 * the API answers the link instead: it is shown once, to pass on by hand.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type Invitation, invitationsQuery, invite, revokeInvitation } from '../../api/account-admin';
import type { Role } from '../../api/types';
import { ConfirmAction } from '../../components/ConfirmAction';
import { Field, FormError } from '../../components/Form';
import { LoadError } from '../../components/LoadError';
import { SecretOnce } from '../../components/SecretOnce';
import { SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../lib/format';

function InvitationItem({ invitation }: { invitation: Invitation }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeInvitation(invitation.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['invitations'] }),
  });
  return (
    <li aria-label={invitation.email}>
      <div className="grow">
        <strong>{invitation.email}</strong> <span className="pill">{invitation.role}</span>
        <div className="small muted">Link valid until {formatDateTime(invitation.expires_at)}</div>
      </div>
      <div className="actions">
        <ConfirmAction
          label="Revoke"
          question={`Revoke the invitation of ${invitation.email}?`}
          confirmLabel="Revoke"
          pending={revoke.isPending}
          error={revoke.error}
          onConfirm={() => revoke.mutate()}
        />
      </div>
    </li>
  );
}

function InviteForm() {
  const id = useId();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const send = useMutation({
    mutationFn: () => invite({ email: email.trim(), role }),
    onSuccess: () => {
      setEmail('');
      queryClient.invalidateQueries({ queryKey: ['invitations'] });
    },
  });
  return (
    <form
      className="subsection"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      <h3>Invite a person</h3>
      <FormError error={send.error} />
      {send.data && (
        <p className="small" role="status">
          {send.data.link ? 'Invitation created.' : `Invitation emailed to ${send.data.email}.`}
        </p>
      )}
      {send.data?.link && (
        <SecretOnce title="Invitation link" secret={send.data.link} onDone={() => send.reset()}>
          <p className="small muted">No email was sent: give this link to {send.data.email} yourself.</p>
        </SecretOnce>
      )}
      <Field
        label="Email"
        name="invite-email"
        type="email"
        required
        maxLength={254}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          <option value="member">Member</option>
          <option value="admin">Admin</option>
        </select>
      </div>
      <button type="submit" className="button primary" disabled={send.isPending}>
        Send the invitation
      </button>
    </form>
  );
}

export function Invitations() {
  const invitations = useQuery(invitationsQuery);
  return (
    <section className="card" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invitations</h2>
      {invitations.isPending ? (
        <SkeletonRows rows={2} />
      ) : invitations.isError ? (
        <LoadError error={invitations.error} retry={() => invitations.refetch()} />
      ) : invitations.data.length === 0 ? (
        <p className="muted small">
          No invitation is waiting. Invite a person below; the link is valid 7 days.
        </p>
      ) : (
        <ul className="item-list" aria-label="Pending invitations">
          {invitations.data.map((invitation) => (
            <InvitationItem key={invitation.id} invitation={invitation} />
          ))}
        </ul>
      )}
      <InviteForm />
    </section>
  );
}
