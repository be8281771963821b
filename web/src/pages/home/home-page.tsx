/**
 * `/`: the project at a glance over the URL's range — headline figures with their change against
 * the previous range of the same length, requests and errors over time, the endpoints hurting
 * most (Impact), the newest issues and the widgets starred on the project's dashboards (when any
 * is); onboarding (to /connection) while the project is empty.
 */
import { lazy, type ReactNode, Suspense } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowRight, Cable, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useShellActions } from '@/components/shell/shell-actions';
import { ChartCard } from '@/components/charts/chart-card';
import type { ChartKind, ChartSeries, ValueFormat } from '@/components/charts/time-series-chart';
import { Card, CardHeader, Skeleton } from '@/components/ui/card';
import { linkStyles } from '@/components/ui/link';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { DataTable, numericColumn, TD, TR } from '@/components/ui/table';
import { RelativeTime } from '@/components/ui/relative-time';
import { useCurrentProject } from '@/lib/current-project';
import { meQuery, projectCreatingOrganizations } from '@/lib/queries';
import { roleLabel } from '@/lib/roles';
import { formatCost, formatCount, formatDuration, formatPercent } from '@/lib/format';
import { useTelemetryScope } from '@/lib/telemetry';
import { resolveRange } from '@/lib/time-range';
import { cn } from '@/lib/utils';
import { dashboardsQuery, hasStarredWidget } from '../dashboards/api';
import { EntityNameLink, ErrorRateValue, FigureTile, ImpactBadge } from '../endpoints/entity-parts';
import { DataStatusBanner, dataStatusQuery } from '../data-status';
import { PageHeader } from '../page-header';
import { newestIssuesQuery, overviewQuery, previousStatsQuery, seriesQuery } from './api';
import type { DashboardSeries, Stats } from './types';
import type { Me } from '@/lib/types';

// Its own chunk: the metric views load only for a project that starred a widget.
const StarredWidgets = lazy(async () => ({ default: (await import('../dashboards/starred-widgets')).StarredWidgets }));

/** The headline figures, each with its change against the previous range (`worseWhenUp` colours it). */
/** A tile's figure; without a request no error rate (null, like the P95: a logs-only project is not "0 %"). */
function figureOf(
  stats: Record<(typeof FIGURES)[number]['key'], number | null> | undefined,
  key: (typeof FIGURES)[number]['key'],
) {
  if (!stats) return undefined;
  return key === 'errorRate' && stats.requests === 0 ? null : stats[key];
}

const FIGURES: ReadonlyArray<{
  label: string;
  key: 'requests' | 'errorRate' | 'p95Ms' | 'issues' | 'aiCost';
  format: (value: number | null | undefined) => ReactNode;
  worseWhenUp?: boolean;
}> = [
  { label: 'Requests', key: 'requests', format: formatCount },
  { label: 'Error rate', key: 'errorRate', format: formatPercent, worseWhenUp: true },
  {
    label: 'P95 latency',
    key: 'p95Ms',
    // A monospace "—" reads as "–": no value is shown in the tiles' own face.
    format: (ms) => (ms === null || ms === undefined ? '—' : <span className="font-mono">{formatDuration(ms)}</span>),
    worseWhenUp: true,
  },
  { label: 'Issues', key: 'issues', format: formatCount, worseWhenUp: true },
  { label: 'AI cost', key: 'aiCost', format: formatCost },
];

/** Everything a project can send; none of it in the range and none before means "not connected yet". */
const hasData = (stats: Stats) =>
  stats.requests + stats.tasks + stats.exceptions + stats.aiCalls + stats.sessions + stats.logs + stats.metricPoints >
  0;

/**
 * A range whose only telemetry is logs or metric points leaves every figure and chart here empty:
 * say what did arrive and where it is shown, so the page does not read as "nothing received".
 */
function LogsAndMetricsOnly({ stats }: { stats: Stats }) {
  const figured = stats.requests + stats.tasks + stats.exceptions + stats.aiCalls + stats.sessions;
  if (figured > 0 || stats.logs + stats.metricPoints === 0) return null;
  const received = [
    stats.logs > 0 && (
      <Link key="logs" to="/logs" className={linkStyles.inText}>
        {formatCount(stats.logs)} {stats.logs === 1 ? 'log record' : 'log records'}
      </Link>
    ),
    stats.metricPoints > 0 && (
      <Link key="metrics" to="/metrics" className={linkStyles.inText}>
        {formatCount(stats.metricPoints)} {stats.metricPoints === 1 ? 'metric point' : 'metric points'}
      </Link>
    ),
  ].filter(Boolean);
  return (
    <p data-testid="logs-and-metrics-only" className="text-sm text-muted-foreground">
      No requests, task runs, exceptions, AI calls or sessions in this range; it received{' '}
      {received.length === 2 ? (
        <>
          {received[0]} and {received[1]}
        </>
      ) : (
        received[0]
      )}
      .
    </p>
  );
}

function Onboarding({ projectId, projectName }: { projectId: string | undefined; projectName: string }) {
  // The banner's own query (one cache entry): a project that received data before is not told to send its first.
  const status = useQuery({ ...dataStatusQuery(projectId ?? ''), enabled: projectId !== undefined });
  const receivedBefore = status.data?.hasData === true || status.data?.expiredData === true;
  return (
    <>
      <Card>
        <CardHeader
          title={receivedBefore ? 'Nothing received lately' : 'Send your first data'}
          description={`Home fills with requests, errors and issues ${receivedBefore ? 'again ' : ''}once the project receives telemetry.`}
        />
        {projectId && <DataStatusBanner projectId={projectId} className="mx-4 mt-4" />}
        <div className="flex flex-wrap items-center justify-between gap-4 px-4 py-4">
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Cable className="size-4" aria-hidden />
            The project's token, connection string, OTLP variables and a snippet for your framework.
          </p>
          <Link
            to="/connection"
            className="inline-flex h-8 items-center gap-1.5 rounded-md bg-accent px-3 text-sm font-medium text-accent-foreground outline-none hover:bg-accent/90 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1"
          >
            Connect {projectName}
            <ArrowRight className="size-4" aria-hidden />
          </Link>
        </div>
      </Card>
      {/* Past the plan's retention no range finds the data: the banner says how many days it keeps. */}
      {status.data?.expiredData !== true && (
        <p className="text-xs text-muted-foreground">
          Nothing was received in this range or the one before it. Pick a wider range above if the project sent data
          earlier.
        </p>
      )}
    </>
  );
}

/** One of home's charts of `/api/dashboard` (their crosshairs move together). */
function SeriesCard({
  title,
  description,
  query,
  lines,
  kind,
  format,
}: {
  title: string;
  description: string;
  query: UseQueryResult<DashboardSeries>;
  lines: (data: DashboardSeries) => ChartSeries[];
  kind?: ChartKind;
  format?: ValueFormat;
}) {
  return (
    <ChartCard
      title={title}
      description={description}
      error={query.error}
      kind={kind}
      format={format}
      syncKey="home"
      loading={query.isPending}
      timestamps={query.data?.bucketStarts ?? []}
      series={query.data ? lines(query.data) : []}
      emptyTitle="No requests in this range"
    />
  );
}

/**
 * Why a person sees no project, and what to do: belonging to no organization at all (removed from
 * their only one, or left it) is said as such (before: "Your organization has no project yet").
 */
function noProjectExplanation(me: Me | undefined, mayStartOrganization: boolean): string {
  if (me && me.organizations.length === 0)
    return `You are not a member of any organization: ask an admin of one for an invitation, and open its link to join${mayStartOrganization ? ', or start one of your own' : ''}.`;
  const yours = me && me.organizations.length > 1 ? 'Your organizations have' : 'Your organization has';
  if (projectCreatingOrganizations(me).length > 0) return `${yours} no project yet: create one below.`;
  return `${yours} no project yet. Admins and write members create one; it then appears here.`;
}

/**
 * Home without a project: each of the person's organizations with "Create project" (where their
 * role allows) and a link to its page; in none, "New organization" when they may start one.
 */
function NoProject({ me }: { me: Me | undefined }) {
  const { createProject, createOrganization } = useShellActions();
  const organizations = me?.organizations ?? [];
  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title="Welcome to Sightline"
        description={noProjectExplanation(me, createOrganization !== undefined)}
        actions={
          organizations.length === 0 &&
          createOrganization && (
            <Button variant="primary" onClick={createOrganization}>
              <Plus />
              New organization
            </Button>
          )
        }
      />
      {organizations.length > 0 && (
        <Card>
          <CardHeader title={organizations.length === 1 ? 'Your organization' : 'Your organizations'} />
          <ul className="divide-y">
            {organizations.map((organization) => (
              <li key={organization.id} className="flex items-center gap-4 px-4 py-3">
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <span className="truncate text-sm font-medium" title={organization.name}>
                    {organization.name}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    Your role: {roleLabel(organization.role)}
                    {organization.suspended && ' · suspended'}
                  </span>
                </div>
                <Link
                  to="/settings/organization"
                  search={{ organization: organization.id }}
                  className={cn(linkStyles.accent, 'text-sm')}
                  aria-label={`Organization settings of ${organization.name}`}
                >
                  Organization settings
                </Link>
                {createProject && organization.role !== 'read-only' && !organization.suspended && (
                  <Button
                    variant="primary"
                    aria-label={`Create project in ${organization.name}`}
                    onClick={() => createProject(organization.id)}
                  >
                    <Plus />
                    Create project
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}

export function HomePage() {
  const { project, projects } = useCurrentProject();
  const me = useQuery(meQuery);
  const scope = useTelemetryScope();

  const overview = useQuery(overviewQuery(scope));
  const previous = useQuery(previousStatsQuery(scope));
  const series = useQuery(seriesQuery(scope));
  const issues = useQuery(newestIssuesQuery(scope));
  // The same query (and cache entry) StarredWidgets reads; nothing starred, nothing shown.
  const dashboards = useQuery({ ...dashboardsQuery(scope?.projectId ?? ''), enabled: scope !== undefined });
  const anyStarred = dashboards.data?.some((dashboard) => hasStarredWidget(dashboard.definition)) ?? false;

  if (projects && projects.length === 0) return <NoProject me={me.data} />;

  const stats = overview.data?.stats;
  const before = previous.data;
  // Starred widgets are shown even over a range with nothing in it.
  const empty = stats !== undefined && before !== undefined && !hasData(stats) && !hasData(before) && !anyStarred;
  const loading = overview.isPending;

  return (
    <div className="grid gap-4 px-6 py-5">
      <PageHeader
        title={project?.name ?? 'Home'}
        description={`${resolveRange(scope?.range ?? {}).label}; changes against the range before it.`}
      />
      {overview.isError && <ErrorState error={overview.error} />}
      {empty ? (
        <Onboarding projectId={project?.id} projectName={project?.name ?? 'the project'} />
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
            {FIGURES.map(({ label, key, format, worseWhenUp }) => (
              <FigureTile
                key={key}
                label={label}
                loading={loading}
                value={format(figureOf(stats, key))}
                current={figureOf(stats, key)}
                previous={figureOf(before, key)}
                worseWhenUp={worseWhenUp}
              />
            ))}
          </div>
          {stats && <LogsAndMetricsOnly stats={stats} />}

          <div className="grid gap-4 xl:grid-cols-2">
            <SeriesCard
              title="Requests and server errors"
              description="Per interval; drag across a chart to zoom"
              query={series}
              kind="area"
              lines={(data) => [
                { name: 'requests', values: data.requests, color: 1 },
                { name: 'server errors', values: data.serverErrors, color: 'danger' },
              ]}
            />
            <SeriesCard
              title="P95 latency"
              description="Of requests, per interval"
              query={series}
              format="duration"
              lines={(data) => [{ name: 'P95', values: data.p95Ms, color: 2 }]}
            />
          </div>

          <div className="grid items-start gap-4 xl:grid-cols-2">
            <Card className="overflow-hidden">
              <CardHeader
                title="Top endpoints by Impact"
                description="Where slowness and errors hurt most"
                actions={
                  <Link to="/endpoints" className={cn(linkStyles.accent, 'text-xs')}>
                    All endpoints
                  </Link>
                }
              />
              {loading ? (
                <TableSkeleton rows={5} columns={4} />
              ) : (overview.data?.endpoints.length ?? 0) === 0 ? (
                <EmptyState title="No endpoint calls in this range" />
              ) : (
                <DataTable
                  label="Top endpoints by Impact"
                  columns={['Endpoint', ...['Calls', 'P95', 'Errors', 'Impact'].map(numericColumn)]}
                  items={overview.data?.endpoints}
                  row={(endpoint) => (
                    <TR key={endpoint.name}>
                      <TD className="w-full max-w-0">
                        <EntityNameLink to="/endpoints/detail" name={endpoint.name} />
                      </TD>
                      <TD numeric>{formatCount(endpoint.requests)}</TD>
                      <TD numeric className="font-mono text-xs">
                        {formatDuration(endpoint.p95Ms)}
                      </TD>
                      <TD numeric>
                        <ErrorRateValue value={endpoint.errorRate} />
                      </TD>
                      <TD numeric>
                        <ImpactBadge item={endpoint} />
                      </TD>
                    </TR>
                  )}
                />
              )}
            </Card>
            <Card className="overflow-hidden">
              <CardHeader title="Newest issues" description="First seen most recently" />
              {issues.isError ? (
                <ErrorState error={issues.error} className="m-4" />
              ) : issues.isPending ? (
                <TableSkeleton rows={5} columns={3} />
              ) : issues.data.items.length === 0 ? (
                <EmptyState title="No issues in this range">
                  Exceptions and error messages appear here, grouped by their stack trace.
                </EmptyState>
              ) : (
                <DataTable
                  label="Newest issues"
                  columns={['Issue', ...['Events', 'First seen'].map(numericColumn)]}
                  items={issues.data.items}
                  row={(issue) => (
                    <TR key={issue.hash}>
                      <TD className="w-full max-w-0">
                        <Link
                          to="/issues/$hash"
                          params={{ hash: issue.hash }}
                          className={cn(linkStyles.accent, 'block truncate')}
                          title={issue.title}
                        >
                          {issue.title}
                        </Link>
                      </TD>
                      <TD numeric>{formatCount(issue.count)}</TD>
                      <TD numeric className="text-muted-foreground">
                        <RelativeTime value={issue.firstSeen} />
                      </TD>
                    </TR>
                  )}
                />
              )}
            </Card>
          </div>

          {anyStarred && (
            <Suspense fallback={<Skeleton className="h-72" />}>
              <StarredWidgets />
            </Suspense>
          )}
        </>
      )}
    </div>
  );
}
