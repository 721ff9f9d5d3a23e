/**
 * Deleting a site: typed confirmation of its domain, then 30 days in which it can be restored.
 * Only admins may: a member is told so, without a form to fill in.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { meQuery } from '../../api/account';
import { type DeletionScheduled, deleteSite } from '../../api/settings';
import type { Site } from '../../api/types';
import { Field, FormError } from '../../components/Form';
import { ScheduledForDeletion } from './ScheduledForDeletion';

export function DangerZone({ siteId, site }: { siteId: string; site: Site }) {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const [typed, setTyped] = useState('');
  const [scheduled, setScheduled] = useState<DeletionScheduled | null>(null);
  const remove = useMutation({
    mutationFn: () => deleteSite(siteId, typed.trim()),
    onSuccess: (answer) => {
      setScheduled(answer);
      setTyped('');
      // The site's own read now answers 404: only the lists learn of the change.
      queryClient.invalidateQueries({ queryKey: ['dashboard-sites'] });
      queryClient.invalidateQueries({ queryKey: ['sites-with-deleted'] });
    },
  });
  if (scheduled) {
    const { snippet_key, domain, name } = site;
    return (
      <ScheduledForDeletion
        site={{ uuid: siteId, snippet_key, domain, name, deleted_at: scheduled.requested_at }}
        effectiveAt={scheduled.effective_at}
      />
    );
  }
  if (me.data?.role === 'member') {
    return (
      <section className="card danger-zone" aria-labelledby="danger-title">
        <h2 id="danger-title">Delete this site</h2>
        <p className="notice small">
          Only an admin of the account can delete a site. Ask one of the account’s admins if this site should
          go.
        </p>
      </section>
    );
  }
  return (
    <form
      className="card danger-zone"
      aria-labelledby="danger-title"
      onSubmit={(event) => {
        event.preventDefault();
        remove.mutate();
      }}
    >
      <h2 id="danger-title">Delete this site</h2>
      <p className="small">
        Collection stops at once. The site and all its data are erased after 30 days; until then an admin can
        restore it.
      </p>
      <FormError error={remove.error} />
      <Field
        label={`Type ${site.domain} to confirm`}
        name="confirm_domain"
        autoComplete="off"
        spellCheck={false}
        required
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <button type="submit" className="button danger" disabled={!typed.trim() || remove.isPending}>
        Delete the site
      </button>
    </form>
  );
}
