/**
 * A metric query's answer drawn: the chart (any kind of the shared uPlot chart) and the summary
 * table of its series. The explorer and every dashboard widget render answers through these.
 */
import { TimeSeriesChart, type ChartKind } from '@/components/charts/time-series-chart';
import { DataTable, numericColumn, TD, TR } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { formatMetricValue, seriesLabel, summarize } from './query';
import type { MetricAnswer } from './types';

export function MetricChart({
  answer,
  kind,
  title,
  loading,
  height,
  syncKey,
  className,
}: {
  answer: MetricAnswer | undefined;
  kind: ChartKind;
  title: string;
  loading: boolean;
  height: number;
  syncKey: string;
  className?: string;
}) {
  return (
    <TimeSeriesChart
      title={title}
      kind={kind}
      loading={loading && answer === undefined}
      timestamps={answer?.bucketStarts ?? []}
      series={answer ? answer.series.map((s) => ({ name: seriesLabel(s, answer), values: s.values })) : []}
      format={formatMetricValue}
      height={height}
      syncKey={syncKey}
      emptyTitle="No points of this metric in the time range"
      className={className}
    />
  );
}

/** One row per series: the figures over the range's buckets that have a value. */
export function SeriesTable({ answer, label, className }: { answer: MetricAnswer; label: string; className?: string }) {
  const rows = answer.series.map((s) => summarize(s, answer));
  return (
    <div className={cn('min-w-0', className)}>
      <DataTable
        label={label}
        columns={['Series', ...['Last', 'Avg', 'Min', 'Max', 'Buckets'].map(numericColumn)]}
        items={rows}
        row={(row) => (
          <TR key={row.label}>
            <TD className="max-w-96 truncate font-mono text-xs" title={row.label}>
              {row.label}
            </TD>
            <TD numeric>{formatMetricValue(row.last)}</TD>
            <TD numeric>{formatMetricValue(row.avg)}</TD>
            <TD numeric>{formatMetricValue(row.min)}</TD>
            <TD numeric>{formatMetricValue(row.max)}</TD>
            <TD numeric className="text-muted-foreground">
              {row.buckets}
            </TD>
          </TR>
        )}
      />
    </div>
  );
}
