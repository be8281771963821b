/**
 * The explorer's URL (DASHBOARD.md §1.1): the whole query, so a reload or a pasted link draws the
 * same chart. `?metric=&aggregation=&groupBy=[..]&filters=[..]&step=&chart=`; anything malformed
 * is dropped rather than refused, as the rest of the URL state is.
 */
import { oneOf, textParam } from '../../lib/search-params';
import { checkMetricQuery } from './query';
import type { ChartType, MetricQuery } from './types';

export interface MetricsSearch {
  metric?: string;
  aggregation?: MetricQuery['aggregation'];
  groupBy?: string[];
  filters?: MetricQuery['filters'];
  step?: number;
  chart?: ChartType;
}

const CHARTS: readonly ChartType[] = ['line', 'area', 'stacked', 'bar'];

/** Every key it owns is returned, undefined when unusable (lib/search-params.ts says why). */
export function parseMetricsSearch(search: Record<string, unknown>): MetricsSearch {
  const out: MetricsSearch = {
    metric: undefined,
    aggregation: undefined,
    groupBy: undefined,
    filters: undefined,
    step: undefined,
    chart: oneOf(CHARTS, search.chart),
  };
  const metric = textParam(search.metric);
  if (metric === undefined) return out;
  // Each part on its own, so one bad part (a hand-edited filter) keeps the others.
  const part = <K extends keyof MetricQuery>(key: K, raw: unknown): MetricQuery[K] | undefined =>
    raw === undefined ? undefined : checkMetricQuery({ name: metric, [key]: raw }).query?.[key];
  out.metric = metric;
  const groupBy = part('groupBy', search.groupBy);
  const filters = part('filters', search.filters);
  out.aggregation = part('aggregation', search.aggregation);
  out.groupBy = groupBy && groupBy.length > 0 ? groupBy : undefined;
  out.filters = filters && filters.length > 0 ? filters : undefined;
  out.step = part('bucketSeconds', typeof search.step === 'string' ? Number(search.step) : search.step);
  return out;
}

export function queryOfSearch(search: MetricsSearch): MetricQuery {
  return {
    name: search.metric ?? '',
    aggregation: search.aggregation ?? 'avg',
    groupBy: search.groupBy ?? [],
    filters: search.filters ?? [],
    ...(search.step !== undefined ? { bucketSeconds: search.step } : {}),
  };
}

export function searchOfQuery(query: MetricQuery): MetricsSearch {
  return {
    metric: query.name === '' ? undefined : query.name,
    aggregation: query.aggregation === 'avg' ? undefined : query.aggregation,
    groupBy: query.groupBy.length > 0 ? query.groupBy : undefined,
    filters: query.filters.length > 0 ? query.filters : undefined,
    step: query.bucketSeconds,
  };
}
