/**
 * A time-series chart in a card: a heading (the chart's title unless given) and what it shows
 * above it; a failed read (`error`) takes the chart's place with the server's message.
 */
import { Card, CardHeader } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/states';
import { LazyTimeSeriesChart } from './lazy-time-series-chart';
import type { TimeSeriesChartProps } from './time-series-chart';

export function ChartCard({
  heading,
  description,
  error,
  ...chart
}: TimeSeriesChartProps & { heading?: string; description: string; error?: Error | null }) {
  return (
    <Card>
      <CardHeader title={heading ?? chart.title} description={description} />
      <div className="px-4 pt-3 pb-2">{error ? <ErrorState error={error} /> : <LazyTimeSeriesChart {...chart} />}</div>
    </Card>
  );
}
