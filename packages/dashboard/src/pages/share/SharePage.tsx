/**
 * The public view of a shared link (`/share#tts_…`): opens the link (asking for its password
 * when it has one), then shows the site's traffic with the link's access token, without sign-in.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, setAccessToken } from '../../api/http';
import { type OpenedLink, openSharedLink } from '../../api/shared-links';
import { AuthFrame } from '../../components/AuthFrame';
import { Field, FormError } from '../../components/Form';
import { SkeletonRows } from '../../components/States';
import { SiteOverview } from '../overview/SiteOverview';

const linkToken = () => window.location.hash.slice(1);

export default function SharePage() {
  const [token] = useState(linkToken);
  const [password, setPassword] = useState('');
  const [opened, setOpened] = useState<OpenedLink | null>(null);
  const open = useMutation({
    mutationFn: (withPassword: boolean) => openSharedLink({ token, ...(withPassword ? { password } : {}) }),
    onSuccess: (answer) => {
      setAccessToken(answer.access_token);
      setOpened(answer);
    },
  });
  const { mutate } = open;
  useEffect(() => {
    if (token) mutate(false);
    return () => setAccessToken(null);
  }, [token, mutate]);

  if (opened) {
    const { site } = opened;
    return (
      <SiteOverview
        siteId={site.id}
        site={{ ...site, snippet_key: site.id, cookie_apex_domain: null, verified_at: null }}
        shared
      />
    );
  }
  const code = open.error instanceof ApiError ? open.error.code : undefined;
  if (code === 'password_required' || code === 'invalid_password') {
    return (
      <AuthFrame title="This view is protected">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            open.mutate(true);
          }}
        >
          {code === 'invalid_password' && <FormError error={open.error} />}
          <Field
            label="Password"
            name="password"
            type="password"
            required
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button type="submit" className="button primary" disabled={open.isPending}>
            View the reports
          </button>
        </form>
      </AuthFrame>
    );
  }
  if (!token || open.isError) {
    return (
      <AuthFrame title="This link does not open">
        <p>
          {token
            ? open.error?.message
            : 'The address has no shared link in it. Open the link you were sent, whole.'}
        </p>
      </AuthFrame>
    );
  }
  return (
    <main>
      <SkeletonRows rows={8} />
    </main>
  );
}
