/**
 * The time-series chart as its own chunk: a page's table and figures render while uPlot loads,
 * and the first screen's JavaScript stays under budget (DASHBOARD.md §1.3). Until it arrives,
 * a skeleton of the chart's size holds its place.
 */
import { lazy, Suspense } from 'react';
import { Skeleton } from '@/components/ui/card';
import type { TimeSeriesChartProps } from './time-series-chart';

const Chart = lazy(async () => ({ default: (await import('./time-series-chart')).TimeSeriesChart }));

export function LazyTimeSeriesChart(props: TimeSeriesChartProps) {
  return (
    <Suspense fallback={<Skeleton style={{ height: (props.height ?? 200) + 24 }} />}>
      <Chart {...props} />
    </Suspense>
  );
}
