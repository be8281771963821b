/**
 * What the metrics explorer and the dashboard widgets share: the two read queries, the URL form of
 * a metric query (also the widget's stored form, checked the same way on import), series labels
 * and summaries, and what can honestly be said about a metric's kind and unit.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, read } from '@/lib/api';
import { scopeKey, scopeParams, type TelemetryScope } from '@/lib/telemetry';
import { resolveRange, type RangeSearch } from '@/lib/time-range';
import {
  AGGREGATIONS,
  type Aggregation,
  type DiscoveredMetric,
  type FilterOp,
  type MetricAnswer,
  type MetricDiscovery,
  type MetricFilter,
  type MetricQuery,
  type MetricSeries,
} from './types';

export const discoverQuery = (scope: TelemetryScope) =>
  queryOptions({
    queryKey: ['metrics-discover', ...scopeKey(scope)],
    queryFn: () => {
      const { projectId, fromDate, toDate } = scopeParams(scope);
      return read<MetricDiscovery>(
        api.GET('/api/metrics/discover', { params: { query: { projectId, fromDate, toDate } } }),
      );
    },
    placeholderData: keepPreviousData,
  });

export const metricDataQuery = (scope: TelemetryScope, query: MetricQuery) =>
  queryOptions({
    queryKey: ['metrics-query', ...scopeKey(scope), query],
    enabled: query.name !== '',
    queryFn: () => {
      const { projectId, fromDate, toDate } = scopeParams(scope);
      return read<MetricAnswer>(
        api.POST('/api/metrics/query', {
          params: { query: { projectId } },
          body: {
            fromDate,
            toDate,
            name: query.name,
            aggregation: query.aggregation,
            ...(query.groupBy.length > 0 ? { groupBy: query.groupBy } : {}),
            ...(query.filters.length > 0 ? { filters: query.filters } : {}),
            ...(query.bucketSeconds !== undefined ? { bucketSeconds: query.bucketSeconds } : {}),
          },
        }),
      );
    },
    placeholderData: keepPreviousData,
  });

// ---- the stored / URL form ---------------------------------------------------------------------

export const SERVER_NAME = 'serverName';
const DIMENSION_PREFIX = 'dimensions.';
export const FILTER_OPS: ReadonlyArray<{ value: FilterOp; label: string }> = [
  { value: 'eq', label: '=' },
  { value: 'neq', label: '!=' },
  { value: 'contains', label: 'contains' },
];

/** The API field of a filter on a dimension key (or on the reporting server). */
export const filterField = (key: string): string => (key === SERVER_NAME ? SERVER_NAME : `${DIMENSION_PREFIX}${key}`);
/** The dimension key a filter's API field names. */
export const filterKey = (field: string): string =>
  field.startsWith(DIMENSION_PREFIX) ? field.slice(DIMENSION_PREFIX.length) : field;
/** How the pickers name a dimension key: the reporting server has no dimension of its own. */
export const keyLabel = (key: string): string => (key === SERVER_NAME ? 'server name' : key);

export const STEPS: ReadonlyArray<{ seconds: number; label: string }> = [
  { seconds: 60, label: '1 min' },
  { seconds: 300, label: '5 min' },
  { seconds: 900, label: '15 min' },
  { seconds: 3600, label: '1 h' },
  { seconds: 6 * 3600, label: '6 h' },
  { seconds: 86400, label: '1 day' },
];
/** The route refuses a step giving more than this many buckets over the range. */
export const MAX_BUCKETS = 2000;

export function stepAllowed(seconds: number, range: RangeSearch): boolean {
  const { from, to } = resolveRange(range);
  return (to.getTime() - from.getTime()) / 1000 / seconds <= MAX_BUCKETS;
}

const isAggregation = (value: unknown): value is Aggregation => AGGREGATIONS.some((a) => a.value === value);
const OPS: readonly FilterOp[] = ['eq', 'neq', 'contains', 'gt', 'gte', 'lt', 'lte'];

/**
 * A metric query from untrusted JSON (the URL, a saved widget, an imported file): the query, or
 * the reasons it is not one, each naming the field at fault.
 */
export function checkMetricQuery(raw: unknown, at = 'query'): { query?: MetricQuery; errors: string[] } {
  const errors: string[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { errors: [`${at} must be an object`] };
  const value = raw as Record<string, unknown>;
  if (typeof value.name !== 'string' || value.name.trim() === '' || value.name.length > 500)
    errors.push(`${at}.name must be a metric name (1 to 500 characters)`);
  const aggregation = value.aggregation ?? 'avg';
  if (!isAggregation(aggregation))
    errors.push(`${at}.aggregation must be one of ${AGGREGATIONS.map((a) => a.value).join(', ')}`);
  const groupBy = value.groupBy ?? [];
  if (
    !Array.isArray(groupBy) ||
    groupBy.length > 5 ||
    !groupBy.every((key) => typeof key === 'string' && key !== '' && key.length <= 200)
  ) {
    errors.push(`${at}.groupBy must be a list of at most 5 dimension keys`);
  }
  const filters = value.filters ?? [];
  if (!Array.isArray(filters) || filters.length > 20)
    errors.push(`${at}.filters must be a list of at most 20 conditions`);
  else
    filters.forEach((filter: unknown, index) => {
      const f = filter as Partial<MetricFilter> | null;
      if (
        f === null ||
        typeof f !== 'object' ||
        typeof f.field !== 'string' ||
        f.field === '' ||
        !OPS.includes(f.op as FilterOp) ||
        !['string', 'number', 'boolean'].includes(typeof f.value)
      ) {
        errors.push(`${at}.filters[${index}] must be {field, op, value} with op one of ${OPS.join(', ')}`);
      }
    });
  const bucketSeconds = value.bucketSeconds;
  if (
    bucketSeconds !== undefined &&
    (typeof bucketSeconds !== 'number' ||
      !Number.isInteger(bucketSeconds) ||
      bucketSeconds < 10 ||
      bucketSeconds > 86400)
  ) {
    errors.push(`${at}.bucketSeconds must be a whole number of seconds from 10 to 86400`);
  }
  if (errors.length > 0) return { errors };
  return {
    errors,
    query: {
      name: (value.name as string).trim(),
      aggregation: aggregation as Aggregation,
      groupBy: groupBy as string[],
      filters: (filters as MetricFilter[]).map(({ field, op, value: v }) => ({ field, op, value: v })),
      ...(typeof bucketSeconds === 'number' ? { bucketSeconds } : {}),
    },
  };
}

/** "p95(http.duration) by region": the query in one line, for titles. */
export function describeQuery(query: MetricQuery): string {
  const by = query.groupBy.length > 0 ? ` by ${query.groupBy.map(keyLabel).join(', ')}` : '';
  return `${query.aggregation}(${query.name})${by}`;
}

// ---- series -------------------------------------------------------------------------------------

/** A series' legend name: its group's values, or the metric's name when it is not grouped. */
export function seriesLabel(series: MetricSeries, answer: Pick<MetricAnswer, 'name' | 'aggregation'>): string {
  const parts = Object.entries(series.group).map(
    ([key, value]) => `${keyLabel(key)}=${value === '' ? '(none)' : value}`,
  );
  return parts.length > 0 ? parts.join(', ') : `${answer.aggregation}(${answer.name})`;
}

export interface SeriesSummary {
  label: string;
  group: Record<string, string>;
  last: number | null;
  avg: number | null;
  min: number | null;
  max: number | null;
  /** Buckets with a value. */
  buckets: number;
}

/** Last, mean, min and max over a series' buckets that have a value (empty buckets are not zero). */
export function summarize(series: MetricSeries, answer: Pick<MetricAnswer, 'name' | 'aggregation'>): SeriesSummary {
  const present = series.values.filter((v): v is number => v !== null);
  const sum = present.reduce((total, v) => total + v, 0);
  return {
    label: seriesLabel(series, answer),
    group: series.group,
    last: present.length > 0 ? present[present.length - 1]! : null,
    avg: present.length > 0 ? sum / present.length : null,
    min: present.length > 0 ? Math.min(...present) : null,
    max: present.length > 0 ? Math.max(...present) : null,
    buckets: present.length,
  };
}

const metricNumber = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });
const compactNumber = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 2 });

/** A metric value: up to three decimals (gauges are fractional), compact from a million. */
export function formatMetricValue(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return Math.abs(value) >= 1_000_000 ? compactNumber.format(value) : metricNumber.format(value);
}

// ---- kind and unit ------------------------------------------------------------------------------

/** The reference client's predefined metrics (spec: MetricRecord) and their units. */
const KNOWN_UNITS: Record<string, string> = {
  'mem.used': 'MB',
  'mem.total': 'MB',
  'cpu.used_pcnt': '%',
  'go.go_routines': 'count',
  'go.heap_objects': 'count',
  'go.num_gc': 'count',
  'go.gc_pause': 'ns',
};
const HISTOGRAM_PARTS = ['avg', 'count', 'p50', 'p90', 'p95', 'p99'];

/**
 * What the store lets us say about a metric: it keeps neither the instrument nor the unit, but
 * the OTLP route stores a histogram as `<name>.avg` + `<name>.count` (summaries add `.pNN`) and
 * gives sums (counters, up-down counters) a `temporality` dimension; gauges and native-protocol
 * metrics have neither. Unknown stays unsaid.
 */
export function describeMetric(metric: DiscoveredMetric, names: ReadonlySet<string>): { kind: string; unit?: string } {
  const dot = metric.name.lastIndexOf('.');
  const suffix = dot > 0 ? metric.name.slice(dot + 1) : '';
  const base = dot > 0 ? metric.name.slice(0, dot) : '';
  const unit = KNOWN_UNITS[metric.name];
  if (
    HISTOGRAM_PARTS.includes(suffix) &&
    HISTOGRAM_PARTS.some((part) => part !== suffix && names.has(`${base}.${part}`))
  ) {
    return {
      kind: suffix === 'count' ? 'histogram count' : suffix === 'avg' ? 'histogram mean' : `histogram ${suffix}`,
      ...(suffix === 'count' ? { unit: 'count' } : {}),
    };
  }
  const temporality = metric.dimensions.find((d) => d.key === 'temporality');
  if (temporality) return { kind: `sum · ${temporality.values.join(', ')}`, ...(unit ? { unit } : {}) };
  return { kind: 'gauge', ...(unit ? { unit } : {}) };
}
