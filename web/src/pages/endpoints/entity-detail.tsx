/**
 * The detail page of one endpoint or task (`?name=`): headline tiles, latency percentiles and
 * calls over time (one crosshair, drag to zoom), calls per status code, and the slowest, failing
 * and newest calls (`?calls=`, paged by `?page=`), each linking to its trace.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { ChevronLeft } from 'lucide-react';
import { ChartCard } from '@/components/charts/chart-card';
import { Card, CardHeader } from '@/components/ui/card';
import { Segmented } from '@/components/ui/segmented';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { formatCount, formatDuration, formatPercent } from '@/lib/format';
import { scopeKey, scopeParams, useTelemetryScope, type TelemetryScope } from '@/lib/telemetry';
import { cn } from '@/lib/utils';
import { ApdexValue, CallsTable, FigureTile, StatusBreakdown } from './entity-parts';
import type { CallsTab, DetailSearch } from './search';
import type { CallsPage, EntityDetail } from './types';

type RangeParams = ReturnType<typeof scopeParams>;

export interface EntityDetailConfig {
  feature: 'endpoints' | 'tasks';
  /** "endpoint" / "task" and what one execution is called: "call" / "run". */
  entity: string;
  noun: string;
  listPath: '/endpoints' | '/tasks';
  listLabel: string;
  fetchDetail(scope: TelemetryScope, body: RangeParams & { name: string; limit: number }): Promise<EntityDetail>;
  fetchCalls(
    scope: TelemetryScope,
    body: RangeParams & {
      name: string;
      failing: boolean;
      orderBy: 'duration' | 'recordedAt';
      pagination: { page: number; pageSize: number };
    },
  ): Promise<CallsPage>;
  /** Endpoints have an Apdex (from the list route); tasks show their failures instead. */
  fetchApdex?(scope: TelemetryScope, range: RangeParams, name: string): Promise<number | null>;
}

const TABS: ReadonlyArray<{ value: CallsTab; label: string }> = [
  { value: 'slowest', label: 'Slowest' },
  { value: 'failing', label: 'Failing' },
  { value: 'recent', label: 'Recent' },
];

/**
 * Calls per minute (or per hour when fewer than one a minute), over the range asked for; no value
 * ("—") without calls, like the other tiles.
 */
function throughput(count: number, fromDate: string, toDate: string): string {
  const minutes = (Date.parse(toDate) - Date.parse(fromDate)) / 60_000;
  if (minutes <= 0 || count === 0) return '—';
  const perMinute = count / minutes;
  return perMinute >= 1 ? `${Number(perMinute.toPrecision(3))} /min` : `${Number((perMinute * 60).toPrecision(3))} /h`;
}

/** A tile's duration in the monospace face; "no value" as the other tiles show it (a monospace "—" reads as "–"). */
function DurationFigure({ ms }: { ms: number | null | undefined }) {
  if (ms === null || ms === undefined) return <NoValue />;
  return <span className="font-mono">{formatDuration(ms)}</span>;
}

/** The calls table's page, read from the calls route a page at a time. */
const CALLS_PAGE_SIZE = 20;
const CALLS_OF: Record<CallsTab, { failing: boolean; orderBy: 'duration' | 'recordedAt' }> = {
  slowest: { failing: false, orderBy: 'duration' },
  failing: { failing: true, orderBy: 'recordedAt' },
  recent: { failing: false, orderBy: 'recordedAt' },
};

const NoValue = () => <span className="text-muted-foreground">—</span>;

export function EntityDetailPage({ config }: { config: EntityDetailConfig }) {
  const scope = useTelemetryScope();
  const search: DetailSearch = useSearch({ strict: false });
  const navigate = useNavigate();
  const name = search.name;
  const tab = search.calls ?? 'slowest';

  const detail = useQuery({
    queryKey: [config.feature, 'detail', ...scopeKey(scope), name],
    // The calls table reads its own pages (below): no calls from the detail.
    queryFn: () => config.fetchDetail(scope!, { ...scopeParams(scope!), name: name!, limit: 0 }),
    enabled: scope !== undefined && name !== undefined,
  });
  const page = search.page ?? 1;
  const calls = useQuery({
    queryKey: [config.feature, 'calls', ...scopeKey(scope), name, tab, page],
    queryFn: () =>
      config.fetchCalls(scope!, {
        ...scopeParams(scope!),
        name: name!,
        ...CALLS_OF[tab],
        pagination: { page, pageSize: CALLS_PAGE_SIZE },
      }),
    enabled: scope !== undefined && name !== undefined,
    // The page shown stays while the next one loads (no skeleton flash on each page).
    placeholderData: keepPreviousData,
  });
  const apdex = useQuery({
    queryKey: [config.feature, 'apdex', ...scopeKey(scope), name],
    queryFn: () => config.fetchApdex!(scope!, scopeParams(scope!), name!),
    enabled: scope !== undefined && name !== undefined && config.fetchApdex !== undefined,
  });

  const back = (
    <Link
      to={config.listPath}
      className="inline-flex items-center gap-1 text-xs text-muted-foreground hover:text-foreground"
    >
      <ChevronLeft className="size-3.5" aria-hidden />
      {config.listLabel}
    </Link>
  );

  if (name === undefined) {
    return (
      <div className="grid gap-4 px-6 py-5">
        {back}
        <EmptyState title={`No ${config.entity} chosen`}>
          Open one from the list of {config.listLabel.toLowerCase()}.
        </EmptyState>
      </div>
    );
  }

  const data = detail.data;
  const loading = detail.isPending;
  // No calls, no rate: "—", not 0 %.
  const errorRate = data && data.count > 0 ? data.serverErrors / data.count : undefined;
  // The calls route does not count: the detail's totals do (an endpoint's failing calls are its
  // 4xx and 5xx, a task's its failed runs), else the pager knows only whether more follow.
  const callsTotal = !data
    ? undefined
    : tab !== 'failing'
      ? data.count
      : config.feature === 'endpoints'
        ? data.serverErrors + data.clientErrors
        : data.serverErrors;
  // The two charts share the time axis, the crosshair and what they say while empty.
  const alongside = {
    syncKey: `${config.feature}-detail`,
    loading,
    timestamps: data?.series.t ?? [],
    emptyTitle: `No ${config.noun}s in this range`,
  };

  return (
    <div className="grid gap-4 px-6 py-5">
      <div className="grid gap-1">
        {back}
        <h1 className="font-mono text-base font-semibold break-all">{name}</h1>
        {data && (
          <p className="text-sm text-muted-foreground tabular">
            {formatCount(data.count)} {config.noun}s · {formatCount(data.serverErrors)} failed
            {config.feature === 'endpoints' ? ` · ${formatCount(data.clientErrors)} client errors` : ''}
          </p>
        )}
      </div>
      {detail.isError ? (
        <ErrorState error={detail.error} />
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
            <FigureTile label="Typical (P50)" loading={loading} value={<DurationFigure ms={data?.p50Ms} />} />
            <FigureTile label="Slow (P95)" loading={loading} value={<DurationFigure ms={data?.p95Ms} />} />
            <FigureTile label="P99" loading={loading} value={<DurationFigure ms={data?.p99Ms} />} />
            {config.fetchApdex ? (
              <FigureTile
                label="Apdex"
                loading={apdex.isPending}
                value={apdex.isError ? <NoValue /> : <ApdexValue value={apdex.data ?? null} />}
              />
            ) : (
              <FigureTile label="Failures" loading={loading} value={formatCount(data?.serverErrors)} />
            )}
            <FigureTile
              label="Error rate"
              loading={loading}
              value={
                errorRate === undefined ? (
                  <NoValue />
                ) : (
                  <span className={cn(errorRate >= 0.05 && 'text-danger')}>{formatPercent(errorRate)}</span>
                )
              }
            />
            <FigureTile
              label="Throughput"
              loading={loading}
              value={data && data.count > 0 ? throughput(data.count, data.fromDate, data.toDate) : <NoValue />}
            />
          </div>

          <div className="grid gap-4 xl:grid-cols-2">
            <ChartCard
              heading="Latency"
              description="P50, P95 and P99 per interval"
              title={`Latency of ${name}`}
              {...alongside}
              format="duration"
              series={
                data
                  ? [
                      { name: 'P50', values: data.series.p50Ms, color: 1 },
                      { name: 'P95', values: data.series.p95Ms, color: 2 },
                      { name: 'P99', values: data.series.p99Ms, color: 4, dashed: true },
                    ]
                  : []
              }
            />
            <ChartCard
              heading={`${config.noun[0]!.toUpperCase()}${config.noun.slice(1)}s and failures`}
              description="Per interval"
              title={`${config.noun}s of ${name}`}
              {...alongside}
              kind="area"
              series={
                data
                  ? [
                      { name: `${config.noun}s`, values: data.series.count, color: 1 },
                      { name: 'failures', values: data.series.errors, color: 'danger' },
                    ]
                  : []
              }
            />
          </div>

          <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
            <Card>
              <CardHeader
                title="Status codes"
                description={`${config.noun[0]!.toUpperCase()}${config.noun.slice(1)}s per status in the range`}
              />
              {loading ? (
                <TableSkeleton rows={3} columns={3} />
              ) : (
                <StatusBreakdown codes={data?.statusCodes ?? []} total={data?.count ?? 0} noun={config.noun} />
              )}
            </Card>
            <Card className="overflow-hidden">
              <header className="flex items-center justify-between gap-4 border-b px-4 py-2">
                <h2 className="text-sm font-semibold">
                  {config.noun[0]!.toUpperCase()}
                  {config.noun.slice(1)}s
                </h2>
                <Segmented
                  label={`${config.noun}s to show`}
                  kind="tab"
                  size="sm"
                  options={TABS}
                  value={tab}
                  onChange={(value) =>
                    void navigate({
                      to: '.',
                      search: (prev) => ({ ...prev, calls: value === 'slowest' ? undefined : value, page: undefined }),
                      replace: true,
                    })
                  }
                />
              </header>
              {calls.isPending ? (
                <TableSkeleton rows={6} columns={5} />
              ) : calls.isError ? (
                <ErrorState error={calls.error} className="m-4" />
              ) : (
                // The page asked for is loading: the previous one stays, dimmed, under the new pager.
                <div
                  aria-busy={calls.isPlaceholderData}
                  className={cn('transition-opacity', calls.isPlaceholderData && 'opacity-50')}
                >
                  <CallsTable
                    calls={calls.data.items}
                    paging={
                      page > 1 || calls.data.hasMore || (callsTotal ?? 0) > CALLS_PAGE_SIZE
                        ? {
                            page,
                            pageSize: CALLS_PAGE_SIZE,
                            total: callsTotal,
                            hasMore: calls.data.hasMore,
                            onPage: (next) => void navigate({ to: '.', search: (prev) => ({ ...prev, page: next }) }),
                          }
                        : undefined
                    }
                    noun={config.noun}
                    emptyTitle={
                      page > 1
                        ? `No more ${config.noun}s: the list ended on an earlier page`
                        : tab === 'failing'
                          ? `No failed ${config.noun}s in this range`
                          : `No ${config.noun}s in this range`
                    }
                  />
                </div>
              )}
            </Card>
          </div>
        </>
      )}
    </div>
  );
}
