/**
 * /metrics: the explorer. The query lives in the URL (search.ts); the chart and the series
 * summary come from POST /api/metrics/query over the page's range; "Add to dashboard" saves the
 * query as a widget.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { LayoutDashboard } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Segmented } from '@/components/ui/segmented';
import { EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { RelativeTime } from '@/components/ui/relative-time';
import { useCurrentProject } from '@/lib/current-project';
import { formatCount } from '@/lib/format';
import { useTelemetryScope, type TelemetryScope } from '@/lib/telemetry';
import { canWrite } from '../dashboards/api';
import { PageHeader } from '../page-header';
import { AddToDashboardDialog } from './add-to-dashboard';
import { MetricChart, SeriesTable } from './metric-view';
import { STEPS, describeMetric, describeQuery, discoverQuery, metricDataQuery } from './query';
import { QueryBuilder } from './query-builder';
import { queryOfSearch, searchOfQuery, type MetricsSearch } from './search';
import type { ChartType, DiscoveredMetric, MetricQuery } from './types';

const CHART_TYPES: ReadonlyArray<{ value: ChartType; label: string }> = [
  { value: 'line', label: 'Line' },
  { value: 'area', label: 'Area' },
  { value: 'stacked', label: 'Stacked' },
  { value: 'bar', label: 'Bar' },
];

export function MetricsPage() {
  const scope = useTelemetryScope();
  const { project } = useCurrentProject();
  if (!scope) return null;
  return <Explorer scope={scope} writable={canWrite(project?.role)} />;
}

function Explorer({ scope, writable }: { scope: TelemetryScope; writable: boolean }) {
  // Not strict: the placeholder routes' path type also names /metrics, so the route id is ambiguous to the types.
  const search: MetricsSearch = useSearch({ strict: false });
  const navigate = useNavigate();
  const query = useMemo(() => queryOfSearch(search), [search]);
  const chart = search.chart ?? 'line';
  const discover = useQuery(discoverQuery(scope));
  const data = useQuery(metricDataQuery(scope, query));
  const [adding, setAdding] = useState(false);
  const metrics = discover.data?.metrics;

  const setQuery = (next: MetricQuery) =>
    void navigate({ to: '/metrics', search: (prev) => ({ ...prev, ...searchOfQuery(next) }) });
  const step = data.data
    ? (STEPS.find((s) => s.seconds === data.data.bucketSeconds)?.label ?? `${data.data.bucketSeconds} s`)
    : undefined;

  return (
    // One column that may be narrower than its content: at a tablet's width the metric list
    // scrolls inside its card instead of widening the page past the window.
    <div className="grid grid-cols-1 gap-4 px-6 py-5">
      <PageHeader
        title="Metrics"
        description="Pick a metric, aggregate it per time bucket, group and filter it by its dimensions."
        actions={
          writable && query.name !== '' ? (
            <Button onClick={() => setAdding(true)}>
              <LayoutDashboard aria-hidden />
              Add to dashboard
            </Button>
          ) : undefined
        }
      />
      <Card className="px-4 py-3">
        <QueryBuilder value={query} onChange={setQuery} metrics={metrics} range={scope.range} idPrefix="explorer" />
      </Card>

      {discover.error ? (
        <ErrorState error={discover.error} />
      ) : query.name === '' ? (
        <MetricList metrics={metrics} loading={discover.isLoading} />
      ) : (
        <>
          <Card>
            <header className="flex flex-wrap items-center justify-between gap-3 border-b px-4 py-2">
              <h2 className="min-w-0 truncate font-mono text-sm font-semibold">{describeQuery(query)}</h2>
              <div className="flex items-center gap-3">
                {step && <span className="text-xs text-muted-foreground tabular">step {step}</span>}
                <Segmented
                  label="Chart type"
                  size="sm"
                  options={CHART_TYPES}
                  value={chart}
                  onChange={(value) =>
                    void navigate({
                      to: '/metrics',
                      search: (prev) => ({ ...prev, chart: value === 'line' ? undefined : value }),
                    })
                  }
                />
              </div>
            </header>
            <div className="px-4 py-3">
              {data.error ? (
                <ErrorState error={data.error} />
              ) : (
                <MetricChart
                  answer={data.data}
                  kind={chart}
                  title={describeQuery(query)}
                  loading={data.isLoading}
                  height={300}
                  syncKey="metrics"
                />
              )}
            </div>
          </Card>
          {!data.error && (
            <Card>
              <CardHeader
                title="Series"
                description="Over the buckets of the range that have a value; empty buckets are not counted as zero."
              />
              {data.data ? (
                data.data.series.length > 0 ? (
                  <SeriesTable answer={data.data} label="Series summary" />
                ) : (
                  <EmptyState title="No series">
                    This metric has no points matching the filters in the time range.
                  </EmptyState>
                )
              ) : (
                <TableSkeleton rows={3} columns={6} />
              )}
            </Card>
          )}
        </>
      )}
      {adding && <AddToDashboardDialog scope={scope} query={query} chart={chart} onClose={() => setAdding(false)} />}
    </div>
  );
}

/** Before a metric is picked: every metric of the range, each a link that picks it. */
function MetricList({ metrics, loading }: { metrics: readonly DiscoveredMetric[] | undefined; loading: boolean }) {
  const names = useMemo(() => new Set(metrics?.map((m) => m.name) ?? []), [metrics]);
  if (loading || !metrics) {
    return (
      <Card>
        <TableSkeleton rows={6} columns={5} />
      </Card>
    );
  }
  if (metrics.length === 0) {
    return (
      <Card>
        <EmptyState title="No metrics in this time range">
          <p>
            Metrics arrive through OpenTelemetry (<code className="font-mono text-xs">/api/otel/v1/metrics</code>:
            counters, up-down counters, gauges and histograms) or the native report protocol. A new metric can take up
            to a minute to appear with a 30 s export interval.
          </p>
          <p className="mt-2">
            <Link to="/connection" className="text-accent underline underline-offset-2">
              Set up the connection
            </Link>{' '}
            or widen the time range.
          </p>
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader title="Metrics in this time range" description="Pick one above, or open it from here." />
      <Table aria-label="Metrics in this time range">
        <THead>
          <tr>
            <TH>Metric</TH>
            <TH>Kind</TH>
            <TH>Dimensions</TH>
            <TH numeric>Points</TH>
            <TH numeric>Last seen</TH>
          </tr>
        </THead>
        <TBody>
          {metrics.map((metric) => {
            const about = describeMetric(metric, names);
            return (
              <TR key={metric.name}>
                <TD>
                  <Link
                    to="/metrics"
                    search={(prev) => ({ ...prev, metric: metric.name })}
                    className="font-mono text-xs text-accent underline-offset-2 hover:underline"
                  >
                    {metric.name}
                  </Link>
                </TD>
                <TD className="text-xs text-muted-foreground">
                  {[about.kind, about.unit].filter(Boolean).join(' · ')}
                </TD>
                <TD className="max-w-96 truncate font-mono text-xs text-muted-foreground">
                  {metric.dimensions.map((d) => d.key).join(', ') || '—'}
                </TD>
                <TD numeric>{formatCount(metric.points)}</TD>
                <TD numeric className="text-muted-foreground">
                  <RelativeTime value={metric.lastSeen} />
                </TD>
              </TR>
            );
          })}
        </TBody>
      </Table>
    </Card>
  );
}
