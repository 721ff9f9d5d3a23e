/**
 * The routes. Sign-in pages are open; everything else needs a session and sends a person without
 * one to the sign-in page, coming back to where they were going afterwards. Each page is its own
 * chunk, loaded when first opened.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { meQuery } from './api/account';
import { Layout } from './components/Layout';
import { ErrorState, SkeletonRows } from './components/States';

const SignInPage = lazy(() => import('./pages/auth/SignInPage'));
const SetupPage = lazy(() => import('./pages/auth/SetupPage'));
const AcceptInvitationPage = lazy(() => import('./pages/auth/AcceptInvitationPage'));
const ResetPasswordPage = lazy(() => import('./pages/auth/ResetPasswordPage'));
const SitesPage = lazy(() => import('./pages/sites/SitesPage'));
const NewSitePage = lazy(() => import('./pages/sites/NewSitePage'));
const OverviewPage = lazy(() => import('./pages/overview/OverviewPage'));
const GoalsPage = lazy(() => import('./pages/goals/GoalsPage'));
const GoalPage = lazy(() => import('./pages/goals/GoalPage'));
const PersonPage = lazy(() => import('./pages/goals/PersonPage'));
const FunnelsPage = lazy(() => import('./pages/funnels/FunnelsPage'));
const RevenuePage = lazy(() => import('./pages/revenue/RevenuePage'));
const AiPage = lazy(() => import('./pages/ai/AiPage'));
const SiteSettingsPage = lazy(() => import('./pages/settings/SiteSettingsPage'));
const AccountPage = lazy(() => import('./pages/account/AccountPage'));
const SharePage = lazy(() => import('./pages/share/SharePage'));

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
  if (me.isPending) return <PageLoading />;
  if (me.isError) return <ErrorState error={me.error} retry={() => me.refetch()} />;
  if (!me.data)
    return <Redirect to={`/login?next=${encodeURIComponent(location + window.location.search)}`} />;
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
