/** Add a site: its domain and name, then the snippet to install and the live first-event check. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { createSite, dashboardSitesQuery, type NewSite } from '../../api/sites';
import { CopyButton } from '../../components/CopyButton';
import { Field, FormError } from '../../components/Form';
import { Snippet, VerificationStatus } from './Install';

function Created({ site }: { site: NewSite & { uuid?: string } }) {
  return (
    <main>
      <h1>Install the snippet on {site.domain}</h1>
      <div className="card" style={{ marginTop: '1rem' }}>
        <Snippet site={{ snippet_key: site.snippet_key, cookie_apex_domain: null }} />
        <VerificationStatus siteId={site.site_id} />
        {site.uuid && (
          <Link href={`/sites/${site.uuid}`} className="button primary">
            Go to the site’s dashboard
          </Link>
        )}
      </div>
      <div className="card" style={{ marginTop: '1rem' }}>
        <h2>Its API key, shown once</h2>
        <p className="muted small">
          For sending server-side events and payments from your backend (scopes <code>stats:read</code> and{' '}
          <code>ingest:write</code>, this site only). Store it now: it is not shown again.
        </p>
        <pre className="snippet mono">{site.api_key}</pre>
        <CopyButton text={site.api_key} label="Copy the key" />
      </div>
    </main>
  );
}

export default function NewSitePage() {
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState('');
  const [name, setName] = useState('');
  const submit = useMutation({
    mutationFn: async () => {
      const site = await createSite({ domain: domain.trim(), name: name.trim() || null });
      const sites = await queryClient.fetchQuery({ ...dashboardSitesQuery, staleTime: 0 });
      return { ...site, uuid: sites.find((s) => s.snippet_key === site.snippet_key)?.uuid };
    },
  });
  if (submit.data) return <Created site={submit.data} />;
  return (
    <main>
      <h1>Add a site</h1>
      <form
        className="card"
        style={{ maxWidth: 520, marginTop: '1rem' }}
        onSubmit={(event) => {
          event.preventDefault();
          submit.mutate();
        }}
      >
        <FormError error={submit.error} />
        <Field
          label="Domain"
          name="domain"
          placeholder="example.com"
          required
          maxLength={253}
          hint="The host name only: no https:// and no path."
          value={domain}
          onChange={(e) => setDomain(e.target.value)}
        />
        <Field
          label="Name (optional)"
          name="name"
          maxLength={60}
          placeholder="My shop"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={submit.isPending}>
          Add the site
        </button>
      </form>
    </main>
  );
}
