/**
 * Routes (paths are DASHBOARD.md §3's contract). Every page under the shell shares the URL state
 * of the root: projectId and the time range, which links carry from page to page.
 */
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  notFound,
  type AnyRoute,
  type RouteComponent,
  Outlet,
  redirect,
  retainSearchParams,
} from '@tanstack/react-router';
import { onUnauthorized } from './lib/api';
import { queryClient, whenProjectKnown } from './lib/query-client';
import { scopeOf, type TelemetryScope } from './lib/telemetry';
import { sessionToken } from './lib/session';
import { parseRange, type RangeSearch } from './lib/time-range';
import { parseSearch, stringifySearch, textParam } from './lib/search-params';
import { AppShell } from './components/shell/app-shell';
import {
  DETAIL_NOT_FOUND,
  type DetailKind,
  isUuid,
  PageLoadError,
  RouteErrorState,
} from './components/ui/problem-states';
import { traceUuid } from './lib/ids';
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
import { ENDPOINT_SOURCE, entityListQuery, entitySeriesQuery, type EntityListSource } from './pages/endpoints/api';
import { TASK_SOURCE } from './pages/tasks/api';
import { issueListQuery } from './pages/issues/api';
import { traceQuery } from './pages/traces/api';

export interface AppSearch extends RangeSearch {
  projectId?: string;
}

const rootRoute = createRootRoute({
  // Every key returned, undefined when unusable (lib/search-params.ts says why).
  validateSearch: (search: Record<string, unknown>): AppSearch => ({
    projectId: textParam(search.projectId, 100),
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

// Every key a validator owns is answered, undefined when refused: the router merges the raw query
// string under the validated one, so a key left out would keep its raw value (lib/search-params.ts).
function loginSearch(search: Record<string, unknown>): { redirect?: string; error?: string; ended?: true } {
  return {
    redirect: safeRedirect(search.redirect),
    error: typeof search.error === 'string' ? search.error : undefined,
    ended: search.ended === true || search.ended === 'true' ? true : undefined,
  };
}

function registerSearch(search: Record<string, unknown>): { invitation?: string } {
  return { invitation: typeof search.invitation === 'string' ? search.invitation : undefined };
}

/** The `?token=` of a link the service mails (invitation, password reset). */
function tokenSearch(search: Record<string, unknown>): { token?: string } {
  return { token: typeof search.token === 'string' && search.token !== '' ? search.token : undefined };
}

/** The code the CLI printed, when its link carries it. */
function deviceSearch(search: Record<string, unknown>): { user_code?: string } {
  return typeof search.user_code === 'string' && search.user_code !== '' ? { user_code: search.user_code } : {};
}

/**
 * A page's code as a chunk of its own, fetched on the first visit (TanStack's lazyRouteComponent).
 * A failed fetch becomes a PageLoadError: under the browser's own wording lazyRouteComponent would
 * reload the window, which with the service down shows the browser's "site can't be reached"
 * instead of the shell; the route's error state says what happened and retries.
 */
function lazyPage<T extends Record<string, unknown>, K extends keyof T>(importer: () => Promise<T>, name: K) {
  return lazyRouteComponent(
    () =>
      importer().catch((cause: unknown) => {
        throw new PageLoadError(cause);
      }),
    name,
  );
}

/**
 * A detail route's id checked before anything is read: an id that is not a UUID names nothing, so
 * the page's not-found state shows without asking the API (which would answer 400). In a loader,
 * so that the route's own notFoundComponent shows it.
 */
function checkDetailId(id: string): void {
  if (!isUuid(id)) throw notFound();
}

/** A trace id in OTLP's 32 hex digits (as logs carry it) is moved to the UUID spelling the routes take. */
function traceIdSpelling({ params, location }: { params: { id: string }; location: { href: string } }): void {
  const uuid = traceUuid(params.id);
  if (uuid !== params.id && isUuid(uuid))
    throw redirect({ href: location.href.replace(params.id, uuid), replace: true });
}

/**
 * A page's route: its path under `parent`, the validator of its search when it reads one, and its
 * component, which `lazyRouteComponent` fetches as a chunk of its own on the first visit.
 */
function pageRoute<TParent extends AnyRoute, TPath extends string, TSearch extends object = object>(
  parent: TParent,
  path: TPath,
  component: RouteComponent,
  validateSearch?: (search: Record<string, unknown>) => TSearch,
) {
  return createRoute({ getParentRoute: () => parent, path, component, validateSearch });
}

/** A detail page's route: its id checked first, and the shared not-found state for an id that names nothing. */
function detailRoute<TPath extends string, TSearch extends object = object>(
  path: TPath,
  kind: DetailKind,
  component: RouteComponent,
  validateSearch?: (search: Record<string, unknown>) => TSearch,
) {
  return createRoute({
    getParentRoute: () => appRoute,
    path,
    component,
    validateSearch,
    ...(kind === 'trace' || kind === 'distributedTrace' ? { beforeLoad: traceIdSpelling } : {}),
    loader: ({ params }) => checkDetailId((params as { id: string }).id),
    notFoundComponent: DETAIL_NOT_FOUND[kind],
  });
}

/**
 * A route loader's start of its page's reads (`start` prefetches them into the one cache, where the
 * page's `useQuery` joins them). Not on hover preloads: a pointer over the sidebar must never run a
 * 10M-row read.
 */
function prefetchInScope(search: AppSearch, preload: boolean, start: (scope: TelemetryScope) => void): void {
  const scope = scopeOf(search);
  if (!scope || preload) return;
  whenProjectKnown(scope.projectId, () => start(scope));
}

function requireSession({ location }: { location: { href: string } }) {
  if (sessionToken() === null) throw redirect({ to: '/login', search: { redirect: location.href } });
}

/** Everything behind sign-in: without a session, /login first and then back here. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: requireSession,
  component: AppShell,
  // The shell itself failed: no sidebar to draw it in, the same state on the bare page.
  errorComponent: RouteErrorState,
});

/** Signed-in pages without the shell (the CLI approval page stands alone, like sign-in). */
const bareRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app-bare',
  beforeLoad: requireSession,
  component: Outlet,
});

const loginRoute = pageRoute(
  rootRoute,
  '/login',
  lazyPage(() => import('./pages/login'), 'LoginPage'),
  loginSearch,
);
const registerRoute = pageRoute(
  rootRoute,
  '/register',
  lazyPage(() => import('./pages/register'), 'RegisterPage'),
  registerSearch,
);
const callbackRoute = pageRoute(
  rootRoute,
  '/auth/callback',
  lazyPage(() => import('./pages/auth-callback'), 'AuthCallbackPage'),
);
const acceptInvitationRoute = pageRoute(
  rootRoute,
  '/accept-invitation',
  lazyPage(() => import('./pages/accept-invitation'), 'AcceptInvitationPage'),
  tokenSearch,
);
const forgotPasswordRoute = pageRoute(
  rootRoute,
  '/forgot-password',
  lazyPage(() => import('./pages/forgot-password'), 'ForgotPasswordPage'),
);
const resetPasswordRoute = pageRoute(
  rootRoute,
  '/reset-password',
  lazyPage(() => import('./pages/reset-password'), 'ResetPasswordPage'),
  tokenSearch,
);
const deviceRoute = pageRoute(
  bareRoute,
  '/device',
  lazyPage(() => import('./pages/device'), 'DevicePage'),
  deviceSearch,
);

const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  loaderDeps: ({ search }) => search,
  loader: ({ deps, preload }) =>
    prefetchInScope(deps, preload, (scope) => {
      void queryClient.prefetchQuery(overviewQuery(scope));
      void queryClient.prefetchQuery(previousStatsQuery(scope));
      void queryClient.prefetchQuery(seriesQuery(scope));
      void queryClient.prefetchQuery(newestIssuesQuery(scope));
    }),
  component: lazyPage(() => import('./pages/home/home-page'), 'HomePage'),
});

/** /endpoints and /tasks: one list page over two sources, its list and series started by the loader. */
function entityListRoute<T, Order extends string>(
  path: '/endpoints' | '/tasks',
  source: EntityListSource<T, Order>,
  component: RouteComponent,
) {
  return createRoute({
    getParentRoute: () => appRoute,
    path,
    validateSearch: parseListSearch,
    loaderDeps: ({ search }) => search,
    loader: ({ deps, preload }) =>
      prefetchInScope(deps, preload, (scope) => {
        void queryClient.prefetchQuery(entityListQuery(source, scope, deps));
        void queryClient.prefetchQuery(entitySeriesQuery(source, scope, deps));
      }),
    component,
  });
}

const endpointsRoute = entityListRoute(
  '/endpoints',
  ENDPOINT_SOURCE,
  lazyPage(() => import('./pages/endpoints/endpoints-page'), 'EndpointsPage'),
);
const tasksRoute = entityListRoute(
  '/tasks',
  TASK_SOURCE,
  lazyPage(() => import('./pages/tasks/tasks-page'), 'TasksPage'),
);

const issuesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/issues',
  validateSearch: validateIssuesSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ deps, preload }) =>
    prefetchInScope(deps, preload, (scope) => void queryClient.prefetchQuery(issueListQuery(scope, deps))),
  component: lazyPage(() => import('./pages/issues/issues'), 'IssuesPage'),
});

const traceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/traces/$id',
  validateSearch: validateTraceSearch,
  beforeLoad: traceIdSpelling,
  // Only the project: choosing a span or searching spans changes the search, not the trace to read.
  loaderDeps: ({ search }) => ({ projectId: search.projectId }),
  loader: ({ deps, params, preload }) => {
    checkDetailId(params.id);
    prefetchInScope(deps, preload, (scope) => void queryClient.prefetchQuery(traceQuery(scope.projectId, params.id)));
  },
  notFoundComponent: DETAIL_NOT_FOUND.trace,
  component: lazyPage(() => import('./pages/traces/trace'), 'TracePage'),
});

const endpointDetailRoute = pageRoute(
  appRoute,
  '/endpoints/detail',
  lazyPage(() => import('./pages/endpoints/endpoint-detail-page'), 'EndpointDetailPage'),
  parseDetailSearch,
);
const taskDetailRoute = pageRoute(
  appRoute,
  '/tasks/detail',
  lazyPage(() => import('./pages/tasks/task-detail-page'), 'TaskDetailPage'),
  parseDetailSearch,
);
const connectionRoute = pageRoute(
  appRoute,
  '/connection',
  lazyPage(() => import('./pages/connection'), 'ConnectionPage'),
);
const accountRoute = pageRoute(
  appRoute,
  '/settings/account',
  lazyPage(() => import('./pages/account-settings'), 'AccountSettingsPage'),
);
const projectSettingsRoute = pageRoute(
  appRoute,
  '/settings/project',
  lazyPage(() => import('./pages/project-settings'), 'ProjectSettingsPage'),
);
const organizationSettingsRoute = pageRoute(
  appRoute,
  '/settings/organization',
  lazyPage(() => import('./pages/organization-settings'), 'OrganizationSettingsPage'),
  // The organization shown; without it, the current project's (else the person's first).
  (search): { organization?: string } => ({ organization: textParam(search.organization, 100) }),
);
const issueRoute = pageRoute(
  appRoute,
  '/issues/$hash',
  lazyPage(() => import('./pages/issues/issue'), 'IssuePage'),
  validateIssueSearch,
);
const alertsRoute = pageRoute(
  appRoute,
  '/alerts',
  lazyPage(() => import('./pages/alerts/alerts-page'), 'AlertsPage'),
  validateAlertsSearch,
);
const distributedTraceRoute = detailRoute(
  '/distributed-traces/$id',
  'distributedTrace',
  lazyPage(() => import('./pages/distributed-traces/distributed-trace'), 'DistributedTracePage'),
  validateDistributedTraceSearch,
);
const sessionsRoute = pageRoute(
  appRoute,
  '/sessions',
  lazyPage(() => import('./pages/sessions/sessions-list'), 'SessionsListPage'),
  validateSessionsSearch,
);
const sessionRoute = detailRoute(
  '/sessions/$id',
  'session',
  lazyPage(() => import('./pages/sessions/session-detail'), 'SessionDetailPage'),
  validateSessionSearch,
);
const logsRoute = pageRoute(
  appRoute,
  '/logs',
  lazyPage(() => import('./pages/logs/logs-page'), 'LogsPage'),
  parseLogsSearch,
);
const aiTracesRoute = pageRoute(
  appRoute,
  '/ai-traces',
  lazyPage(() => import('./pages/ai-traces/ai-traces-page'), 'AiTracesPage'),
  parseAiTracesSearch,
);
const aiTraceRoute = detailRoute(
  '/ai-traces/$id',
  'aiTrace',
  lazyPage(() => import('./pages/ai-traces/ai-trace-page'), 'AiTracePage'),
);
const metricsRoute = pageRoute(
  appRoute,
  '/metrics',
  lazyPage(() => import('./pages/metrics/metrics-page'), 'MetricsPage'),
  parseMetricsSearch,
);
const dashboardsRoute = pageRoute(
  appRoute,
  '/dashboards',
  lazyPage(() => import('./pages/dashboards/dashboards-page'), 'DashboardsPage'),
);
const dashboardRoute = detailRoute(
  '/dashboards/$id',
  'dashboard',
  lazyPage(() => import('./pages/dashboards/dashboard-page'), 'DashboardPage'),
);

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

export const router = createRouter({
  routeTree,
  // Search values stay the text typed (`?q=12.50` is "12.50", not 12.5): lib/search-params.ts.
  parseSearch,
  stringifySearch,
  defaultPreload: 'intent',
  scrollRestoration: true,
  // A page that fails to draw shows what happened inside the shell, with a Retry (not TanStack's bare page).
  defaultErrorComponent: RouteErrorState,
});

onUnauthorized(() => {
  const here = router.state.location;
  if (here.pathname === '/login') return;
  // `ended`: the login page says why the person is there (a session that expired or was revoked).
  void router.navigate({ to: '/login', search: { redirect: here.href, ended: true } });
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
