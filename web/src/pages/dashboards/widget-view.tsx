/**
 * What a widget draws for the page's range: a chart, a single value (coloured only when it has
 * thresholds) or the series table. Used by the dashboard grid, the widget dialog's preview and
 * the starred widgets on home.
 */
import { useQuery } from '@tanstack/react-query';
import { Sparkline } from '@/components/charts/sparkline';
import { Skeleton } from '@/components/ui/card';
import { EmptyState, ErrorState } from '@/components/ui/states';
import type { TelemetryScope } from '@/lib/telemetry';
import { cn } from '@/lib/utils';
import { MetricChart, SeriesTable } from '../metrics/metric-view';
import { formatMetricValue, metricDataQuery, seriesLabel } from '../metrics/query';
import type { MetricAnswer } from '../metrics/types';
import { levelOf, reduceValues, type Level } from './definition';
import type { Widget } from './types';

// Darkened in the light theme: amber and green on white are below the 3:1 that large figures need.
const LEVEL_TEXT: Record<Level, string> = {
  success: 'text-[color-mix(in_oklch,var(--success)_72%,black)] dark:text-success',
  warning: 'text-[color-mix(in_oklch,var(--warning)_68%,black)] dark:text-warning',
  danger: 'text-danger',
};
const LEVEL_LABEL: Record<Level, string> = {
  success: 'within thresholds',
  warning: 'over the amber threshold',
  danger: 'over the red threshold',
};

/** `height` is the pixel height the body may fill (charts need a number; the legend sits under the plot). */
export function WidgetBody({
  widget,
  scope,
  syncKey,
  height,
}: {
  widget: Pick<Widget, 'type' | 'query' | 'title' | 'reducer' | 'thresholds'>;
  scope: TelemetryScope;
  syncKey: string;
  height: number;
}) {
  const data = useQuery(metricDataQuery(scope, widget.query));
  if (data.error) return <ErrorState error={data.error} className="text-xs" />;
  if (widget.type === 'value') return <SingleValue answer={data.data} widget={widget} />;
  if (widget.type === 'table') {
    if (!data.data) return <Skeleton className="h-full w-full" />;
    if (data.data.series.length === 0) return <EmptyState title="No points in this time range" className="py-4" />;
    return <SeriesTable answer={data.data} label={widget.title} className="h-full overflow-auto" />;
  }
  return (
    <MetricChart
      answer={data.data}
      kind={widget.type}
      title={widget.title}
      loading={data.isLoading}
      height={Math.max(60, height - 28)}
      syncKey={syncKey}
    />
  );
}

function SingleValue({
  answer,
  widget,
}: {
  answer: MetricAnswer | undefined;
  widget: Pick<Widget, 'reducer' | 'thresholds' | 'title'>;
}) {
  if (!answer) return <Skeleton className="h-12 w-32" />;
  const first = answer.series[0];
  const reducer = widget.reducer ?? 'last';
  const value = first ? reduceValues(first.values, reducer) : null;
  const level = value !== null && widget.thresholds ? levelOf(value, widget.thresholds) : undefined;
  const more = answer.series.length - 1;
  return (
    <div className="flex h-full flex-col justify-between gap-1">
      <div className="grid gap-0.5">
        <span
          role="group"
          className={cn(
            'text-3xl font-semibold tracking-tight tabular',
            level ? LEVEL_TEXT[level] : value === null && 'text-muted-foreground',
          )}
          aria-label={`${widget.title}: ${formatMetricValue(value)}${level ? `, ${LEVEL_LABEL[level]}` : ''}`}
          data-level={level}
        >
          {formatMetricValue(value)}
        </span>
        <span className="truncate text-xs text-muted-foreground">
          {reducer} over the range
          {first && Object.keys(first.group).length > 0 ? ` · ${seriesLabel(first, answer)}` : ''}
          {more > 0 ? ` · ${more} more series` : ''}
        </span>
      </div>
      {/* The buckets that have a value: an empty bucket is not a zero. */}
      {first && first.values.filter((v) => v !== null).length > 1 && (
        <Sparkline
          values={first.values.filter((v): v is number => v !== null)}
          label={`${widget.title} over the range`}
          className={cn('h-8 w-full', level ? LEVEL_TEXT[level] : 'text-accent')}
        />
      )}
    </div>
  );
}
