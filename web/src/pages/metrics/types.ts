/**
 * The metric read routes' answers and bodies (src/api/telemetry/metrics.ts, the store's
 * queries/metrics.ts). Both routes declare their answer schema, so these are the generated types.
 */
import type { paths } from '@sightline/api-client';

export type MetricDiscovery = paths['/api/metrics/discover']['get']['responses'][200]['content']['application/json'];
export type DiscoveredMetric = MetricDiscovery['metrics'][number];

type QueryBody = paths['/api/metrics/query']['post']['requestBody']['content']['application/json'];
export type MetricAnswer = paths['/api/metrics/query']['post']['responses'][200]['content']['application/json'];
export type MetricSeries = MetricAnswer['series'][number];

export type Aggregation = NonNullable<QueryBody['aggregation']>;
export type MetricFilter = NonNullable<QueryBody['filters']>[number];
export type FilterOp = MetricFilter['op'];

/** The aggregations of POST /api/metrics/query, in the order the picker lists them. */
export const AGGREGATIONS: ReadonlyArray<{ value: Aggregation; label: string }> = [
  { value: 'avg', label: 'avg' },
  { value: 'sum', label: 'sum' },
  { value: 'min', label: 'min' },
  { value: 'max', label: 'max' },
  { value: 'count', label: 'count (points)' },
  { value: 'p50', label: 'p50' },
  { value: 'p90', label: 'p90' },
  { value: 'p95', label: 'p95' },
  { value: 'p99', label: 'p99' },
];

/**
 * One metric query, as the explorer's URL and a dashboard widget keep it: the route's body
 * without the time range (the page's range applies). `bucketSeconds` absent = chosen by the
 * service from the range.
 */
export interface MetricQuery {
  name: string;
  aggregation: Aggregation;
  groupBy: string[];
  filters: MetricFilter[];
  bucketSeconds?: number;
}

export type ChartType = 'line' | 'area' | 'stacked' | 'bar';
