/** The people of the account and the invitations waiting for an answer. Managing them is for admins. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { meQuery } from '../../api/account';
import { changeMemberRole, type Member, membersQuery, removeMember } from '../../api/account-admin';
import type { Role } from '../../api/types';
import { ConfirmAction } from '../../components/ConfirmAction';
import { FormError } from '../../components/Form';
import { LoadError } from '../../components/LoadError';
import { SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { Invitations } from './Invitations';

function MemberItem({ member, isMe }: { member: Member; isMe: boolean }) {
  const id = useId();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['members'] });
  const role = useMutation({
    mutationFn: (next: Role) => changeMemberRole(member.user_id, next),
    onSuccess: () => {
      refresh();
      if (isMe) queryClient.invalidateQueries({ queryKey: ['me'] });
    },
  });
  const remove = useMutation({ mutationFn: () => removeMember(member.user_id), onSuccess: refresh });
  return (
    <li aria-label={member.email}>
      <div className="grow">
        <div>
          <strong>{member.email}</strong> {isMe && <span className="pill">You</span>}
        </div>
        <div className="small muted">Member since {formatDateTime(member.created_at)}</div>
      </div>
      <div className="actions">
        <label className="visually-hidden" htmlFor={`${id}-role`}>
          Role of {member.email}
        </label>
        <select
          id={`${id}-role`}
          className="input"
          value={member.role}
          disabled={role.isPending}
          onChange={(e) => role.mutate(e.target.value as Role)}
        >
          <option value="admin">Admin</option>
          <option value="member">Member</option>
        </select>
        {!isMe && (
          <ConfirmAction
            label="Remove"
            question={`Remove ${member.email} from the account?`}
            confirmLabel="Remove"
            pending={remove.isPending}
            error={remove.error}
            onConfirm={() => remove.mutate()}
          />
        )}
      </div>
      <FormError error={role.error} />
    </li>
  );
}

export function Members() {
  const me = useQuery(meQuery);
  const members = useQuery(membersQuery);
  return (
    <>
      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <p className="small muted">
          Admins manage people, keys, bot tokens and site deletion; members see every site and change its
          settings.
        </p>
        {members.isPending ? (
          <SkeletonRows rows={3} />
        ) : members.isError ? (
          <LoadError error={members.error} retry={() => members.refetch()} />
        ) : (
          <ul className="item-list" aria-label="Members">
            {members.data.map((member) => (
              <MemberItem key={member.user_id} member={member} isMe={member.user_id === me.data?.user.id} />
            ))}
          </ul>
        )}
      </section>
      {!members.isError && <Invitations />}
    </>
  );
}
