/**
 * Routes (paths are DASHBOARD.md §3's contract). Every page under the shell shares the URL state
 * of the root: projectId and the time range, which links carry from page to page.
 */
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
  retainSearchParams,
} from '@tanstack/react-router';
import { onUnauthorized } from './lib/api';
import { queryClient, whenProjectKnown } from './lib/query-client';
import { scopeOf } from './lib/telemetry';
import { sessionToken } from './lib/session';
import { parseRange, type RangeSearch } from './lib/time-range';
import { AppShell } from './components/shell/app-shell';
import { NotFound } from './pages/not-found';
import { parseDetailSearch, parseListSearch } from './pages/endpoints/search';
import { validateSessionSearch, validateSessionsSearch } from './pages/sessions/search';
import { parseLogsSearch } from './pages/logs/search';
import { parseAiTracesSearch } from './pages/ai-traces/search';
import { parseMetricsSearch } from './pages/metrics/search';
import { validateIssueSearch, validateIssuesSearch } from './pages/issues/search';
import { validateAlertsSearch } from './pages/alerts/search';
import { validateDistributedTraceSearch, validateTraceSearch } from './pages/traces/search';
import { newestIssuesQuery, overviewQuery, previousStatsQuery, seriesQuery } from './pages/home/api';
import { ENDPOINT_SOURCE, entityListQuery, entitySeriesQuery } from './pages/endpoints/api';
import { TASK_SOURCE } from './pages/tasks/api';
import { issueListQuery } from './pages/issues/api';
import { traceQuery } from './pages/traces/api';

export interface AppSearch extends RangeSearch {
  projectId?: string;
}

const rootRoute = createRootRoute({
  validateSearch: (search: Record<string, unknown>): AppSearch => ({
    ...(typeof search.projectId === 'string' && search.projectId !== '' ? { projectId: search.projectId } : {}),
    ...parseRange(search),
  }),
  search: { middlewares: [retainSearchParams(['projectId', 'range', 'from', 'to'])] },
  component: Outlet,
  notFoundComponent: NotFound,
});

/** A same-origin path to come back to after signing in; anything else is ignored (no open redirect). */
export function safeRedirect(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : undefined;
}

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { redirect?: string; error?: string } => ({
    ...(safeRedirect(search.redirect) ? { redirect: safeRedirect(search.redirect) } : {}),
    ...(typeof search.error === 'string' ? { error: search.error } : {}),
  }),
  component: lazyRouteComponent(() => import('./pages/login'), 'LoginPage'),
});

const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  validateSearch: (search: Record<string, unknown>): { invitation?: string } =>
    typeof search.invitation === 'string' ? { invitation: search.invitation } : {},
  component: lazyRouteComponent(() => import('./pages/register'), 'RegisterPage'),
});

const callbackRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/callback',
  component: lazyRouteComponent(() => import('./pages/auth-callback'), 'AuthCallbackPage'),
});

/** The `?token=` of a link the service mails (invitation, password reset). */
function tokenSearch(search: Record<string, unknown>): { token?: string } {
  return typeof search.token === 'string' && search.token !== '' ? { token: search.token } : {};
}

const acceptInvitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accept-invitation',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./pages/accept-invitation'), 'AcceptInvitationPage'),
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: lazyRouteComponent(() => import('./pages/forgot-password'), 'ForgotPasswordPage'),
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import('./pages/reset-password'), 'ResetPasswordPage'),
});

function requireSession({ location }: { location: { href: string } }) {
  if (sessionToken() === null) throw redirect({ to: '/login', search: { redirect: location.href } });
}

/** Everything behind sign-in: without a session, /login first and then back here. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: requireSession,
  component: AppShell,
});

/** Signed-in pages without the shell (the CLI approval page stands alone, like sign-in). */
const bareRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app-bare',
  beforeLoad: requireSession,
  component: Outlet,
});

const deviceRoute = createRoute({
  getParentRoute: () => bareRoute,
  path: '/device',
  validateSearch: (search: Record<string, unknown>): { user_code?: string } =>
    typeof search.user_code === 'string' && search.user_code !== '' ? { user_code: search.user_code } : {},
  component: lazyRouteComponent(() => import('./pages/device'), 'DevicePage'),
});

const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  loaderDeps: ({ search }) => search,
  loader: ({ deps, preload }) => {
    const scope = scopeOf(deps);
    if (!scope || preload) return;
    whenProjectKnown(scope.projectId, () => {
      void queryClient.prefetchQuery(overviewQuery(scope));
      void queryClient.prefetchQuery(previousStatsQuery(scope));
      void queryClient.prefetchQuery(seriesQuery(scope));
      void queryClient.prefetchQuery(newestIssuesQuery(scope));
    });
  },
  component: lazyRouteComponent(() => import('./pages/home/home-page'), 'HomePage'),
});

const endpointsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/endpoints',
  validateSearch: parseListSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ deps, preload }) => {
    const scope = scopeOf(deps);
    if (!scope || preload) return;
    whenProjectKnown(scope.projectId, () => {
      void queryClient.prefetchQuery(entityListQuery(ENDPOINT_SOURCE, scope, deps));
      void queryClient.prefetchQuery(entitySeriesQuery(ENDPOINT_SOURCE, scope, deps));
    });
  },
  component: lazyRouteComponent(() => import('./pages/endpoints/endpoints-page'), 'EndpointsPage'),
});

const endpointDetailRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/endpoints/detail',
  validateSearch: parseDetailSearch,
  component: lazyRouteComponent(() => import('./pages/endpoints/endpoint-detail-page'), 'EndpointDetailPage'),
});

const tasksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/tasks',
  validateSearch: parseListSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ deps, preload }) => {
    const scope = scopeOf(deps);
    if (!scope || preload) return;
    whenProjectKnown(scope.projectId, () => {
      void queryClient.prefetchQuery(entityListQuery(TASK_SOURCE, scope, deps));
      void queryClient.prefetchQuery(entitySeriesQuery(TASK_SOURCE, scope, deps));
    });
  },
  component: lazyRouteComponent(() => import('./pages/tasks/tasks-page'), 'TasksPage'),
});

const taskDetailRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/tasks/detail',
  validateSearch: parseDetailSearch,
  component: lazyRouteComponent(() => import('./pages/tasks/task-detail-page'), 'TaskDetailPage'),
});

const connectionRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/connection',
  component: lazyRouteComponent(() => import('./pages/connection'), 'ConnectionPage'),
});

const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/account',
  component: lazyRouteComponent(() => import('./pages/account-settings'), 'AccountSettingsPage'),
});

const projectSettingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/project',
  component: lazyRouteComponent(() => import('./pages/project-settings'), 'ProjectSettingsPage'),
});

const organizationSettingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/organization',
  component: lazyRouteComponent(() => import('./pages/organization-settings'), 'OrganizationSettingsPage'),
});

const issuesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/issues',
  validateSearch: validateIssuesSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ deps, preload }) => {
    const scope = scopeOf(deps);
    if (scope && !preload)
      whenProjectKnown(scope.projectId, () => void queryClient.prefetchQuery(issueListQuery(scope, deps)));
  },
  component: lazyRouteComponent(() => import('./pages/issues/issues'), 'IssuesPage'),
});

const issueRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/issues/$hash',
  validateSearch: validateIssueSearch,
  component: lazyRouteComponent(() => import('./pages/issues/issue'), 'IssuePage'),
});

const alertsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/alerts',
  validateSearch: validateAlertsSearch,
  component: lazyRouteComponent(() => import('./pages/alerts/alerts-page'), 'AlertsPage'),
});

const traceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/traces/$id',
  validateSearch: validateTraceSearch,
  loaderDeps: ({ search }) => ({ projectId: search.projectId }),
  loader: ({ deps, params, preload }) => {
    if (!preload)
      whenProjectKnown(deps.projectId, () => void queryClient.prefetchQuery(traceQuery(deps.projectId, params.id)));
  },
  component: lazyRouteComponent(() => import('./pages/traces/trace'), 'TracePage'),
});

const distributedTraceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/distributed-traces/$id',
  validateSearch: validateDistributedTraceSearch,
  component: lazyRouteComponent(() => import('./pages/distributed-traces/distributed-trace'), 'DistributedTracePage'),
});

const sessionsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/sessions',
  validateSearch: validateSessionsSearch,
  component: lazyRouteComponent(() => import('./pages/sessions/sessions-list'), 'SessionsListPage'),
});

const sessionRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/sessions/$id',
  validateSearch: validateSessionSearch,
  component: lazyRouteComponent(() => import('./pages/sessions/session-detail'), 'SessionDetailPage'),
});

const logsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/logs',
  validateSearch: parseLogsSearch,
  component: lazyRouteComponent(() => import('./pages/logs/logs-page'), 'LogsPage'),
});

const aiTracesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/ai-traces',
  validateSearch: parseAiTracesSearch,
  component: lazyRouteComponent(() => import('./pages/ai-traces/ai-traces-page'), 'AiTracesPage'),
});

const aiTraceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/ai-traces/$id',
  component: lazyRouteComponent(() => import('./pages/ai-traces/ai-trace-page'), 'AiTracePage'),
});

const metricsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/metrics',
  validateSearch: parseMetricsSearch,
  component: lazyRouteComponent(() => import('./pages/metrics/metrics-page'), 'MetricsPage'),
});

const dashboardsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/dashboards',
  component: lazyRouteComponent(() => import('./pages/dashboards/dashboards-page'), 'DashboardsPage'),
});

const dashboardRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/dashboards/$id',
  component: lazyRouteComponent(() => import('./pages/dashboards/dashboard-page'), 'DashboardPage'),
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  registerRoute,
  callbackRoute,
  acceptInvitationRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  bareRoute.addChildren([deviceRoute]),
  appRoute.addChildren([
    homeRoute,
    endpointsRoute,
    endpointDetailRoute,
    tasksRoute,
    taskDetailRoute,
    issuesRoute,
    issueRoute,
    alertsRoute,
    traceRoute,
    distributedTraceRoute,
    sessionsRoute,
    sessionRoute,
    logsRoute,
    aiTracesRoute,
    aiTraceRoute,
    metricsRoute,
    dashboardsRoute,
    dashboardRoute,
    connectionRoute,
    accountRoute,
    projectSettingsRoute,
    organizationSettingsRoute,
  ]),
]);

export const router = createRouter({ routeTree, defaultPreload: 'intent', scrollRestoration: true });

onUnauthorized(() => {
  const here = router.state.location;
  if (here.pathname === '/login') return;
  void router.navigate({ to: '/login', search: { redirect: here.href } });
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
