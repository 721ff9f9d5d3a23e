/**
 * The routes. Sign-in pages are open; everything else needs a session and sends a person without
 * one to the sign-in page, coming back to where they were going afterwards. Each page is its own
 * chunk (lib/page.ts), loaded when first opened, or with the app for the page it opens on.
 */
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { meQuery, setupStatusQuery } from './api/account';
import { Layout } from './components/Layout';
import { ErrorState, SkeletonRows } from './components/States';
import { page } from './lib/page';

const SignInPage = page(() => import('./pages/auth/SignInPage'), /^\/login$/);
const SetupPage = page(() => import('./pages/auth/SetupPage'), /^\/setup$/);
const AcceptInvitationPage = page(() => import('./pages/auth/AcceptInvitationPage'));
const ResetPasswordPage = page(() => import('./pages/auth/ResetPasswordPage'));
const SitesPage = page(() => import('./pages/sites/SitesPage'), /^\/(sites)?$/);
const NewSitePage = page(() => import('./pages/sites/NewSitePage'));
const OverviewPage = page(() => import('./pages/overview/OverviewPage'), /^\/sites\/[^/]+$/);
const GoalsPage = page(() => import('./pages/goals/GoalsPage'), /^\/sites\/[^/]+\/goals$/);
const GoalPage = page(() => import('./pages/goals/GoalPage'));
const PersonPage = page(() => import('./pages/goals/PersonPage'));
const FunnelsPage = page(() => import('./pages/funnels/FunnelsPage'), /^\/sites\/[^/]+\/funnels/);
const RevenuePage = page(() => import('./pages/revenue/RevenuePage'), /^\/sites\/[^/]+\/revenue$/);
const AiPage = page(() => import('./pages/ai/AiPage'), /^\/sites\/[^/]+\/ai$/);
const SiteSettingsPage = page(() => import('./pages/settings/SiteSettingsPage'));
const AccountPage = page(() => import('./pages/account/AccountPage'));
const SharePage = page(() => import('./pages/share/SharePage'), /^\/share$/);

function PageLoading() {
  return (
    <main>
      <SkeletonRows rows={6} />
    </main>
  );
}

function SignedIn() {
  const [location] = useLocation();
  const me = useQuery(meQuery);
  const setUp = useQuery({ ...setupStatusQuery, enabled: me.data === null });
  if (me.isPending) return <PageLoading />;
  if (me.isError) return <ErrorState error={me.error} retry={() => me.refetch()} />;
  if (!me.data) {
    if (setUp.isPending) return <PageLoading />;
    if (setUp.data?.set_up === false) return <Redirect to="/setup" />;
    return <Redirect to={`/login?next=${encodeURIComponent(location + window.location.search)}`} />;
  }
  return (
    <Layout me={me.data}>
      <Suspense fallback={<PageLoading />}>
        <Switch>
          <Route path="/sites" component={SitesPage} />
          <Route path="/sites/new" component={NewSitePage} />
          <Route path="/sites/:siteId">{(params) => <OverviewPage siteId={params.siteId} />}</Route>
          <Route path="/sites/:siteId/goals">{(params) => <GoalsPage siteId={params.siteId} />}</Route>
          <Route path="/sites/:siteId/goals/:name">
            {(params) => <GoalPage siteId={params.siteId} name={decodeURIComponent(params.name)} />}
          </Route>
          <Route path="/sites/:siteId/people/:handle">
            {(params) => <PersonPage siteId={params.siteId} handle={params.handle} />}
          </Route>
          <Route path="/sites/:siteId/funnels/*?">{(params) => <FunnelsPage siteId={params.siteId} />}</Route>
          <Route path="/sites/:siteId/revenue">{(params) => <RevenuePage siteId={params.siteId} />}</Route>
          <Route path="/sites/:siteId/ai">{(params) => <AiPage siteId={params.siteId} />}</Route>
          <Route path="/sites/:siteId/settings/*?">
            {(params) => <SiteSettingsPage siteId={params.siteId} />}
          </Route>
          <Route path="/account/*?">{() => <AccountPage />}</Route>
          <Route path="/">
            <Redirect to="/sites" />
          </Route>
          <Route>
            <main>
              <ErrorState error={new Error('There is no page at this address.')} />
            </main>
          </Route>
        </Switch>
      </Suspense>
    </Layout>
  );
}

export function App() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Switch>
        <Route path="/login" component={SignInPage} />
        <Route path="/setup" component={SetupPage} />
        <Route path="/accept-invitation" component={AcceptInvitationPage} />
        <Route path="/reset-password" component={ResetPasswordPage} />
        <Route path="/share" component={SharePage} />
        <Route>
          <SignedIn />
        </Route>
      </Switch>
    </Suspense>
  );
}
