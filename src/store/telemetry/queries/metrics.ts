/**
 * Metrics: discovery (names, dimension keys and their values within a range) and bucketed
 * aggregation queries grouped by dimensions. metric_points is ReplacingMergeTree on dedup_key:
 * queries read FINAL. The sort key starts (project_id, name, hour), so a query on one metric
 * reads only that metric's granules.
 */
import type { TelemetryEngine } from '../engine.js';
import { join, param, raw, sql } from '../sql.js';
import { Filters, type FilterAllowList } from './filters.js';
import { isoOf } from './convert.js';
import { bucketOf, inRange, ofProject, runQuery, type TimeRange } from './run.js';

export const METRIC_FILTERS: FilterAllowList = {
  fields: {
    serverName: { sql: 'server_name', type: 'string' },
    value: { sql: 'value', type: 'number' },
  },
  maps: { dimensions: 'dimensions' },
};

export const AGGREGATIONS = ['avg', 'sum', 'min', 'max', 'count', 'p50', 'p90', 'p95', 'p99'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

const AGGREGATE_SQL: Record<Aggregation, string> = {
  avg: 'avg(value)',
  sum: 'sum(value)',
  min: 'min(value)',
  max: 'max(value)',
  count: 'count()',
  p50: 'quantile(0.5)(value)',
  p90: 'quantile(0.9)(value)',
  p95: 'quantile(0.95)(value)',
  p99: 'quantile(0.99)(value)',
};

export const MAX_SERIES = 50;
const MAX_NAMES = 1000;
const MAX_VALUES = 50;

export async function discoverMetrics(engine: TelemetryEngine, projectId: string, range: TimeRange) {
  const where = sql`${ofProject(projectId)} AND ${inRange('recorded_at', range)}`;
  const [names, dimensions] = await Promise.all([
    runQuery<{ name: string; points: number; last_seen: string }>(
      engine,
      'metrics.discover.names',
      sql`SELECT name, count() AS points, toString(max(recorded_at)) AS last_seen FROM metric_points WHERE ${where} GROUP BY name ORDER BY name LIMIT ${param(MAX_NAMES, 'UInt32')}`,
    ),
    runQuery<{ name: string; key: string; dimension_values: string[] }>(
      engine,
      'metrics.discover.dimensions',
      sql`SELECT name, key, arraySort(groupUniqArray(${raw(String(MAX_VALUES))})(dimensions[key])) AS dimension_values
         FROM metric_points ARRAY JOIN mapKeys(dimensions) AS key
        WHERE ${where} GROUP BY name, key ORDER BY name, key LIMIT 10000`,
    ),
  ]);
  const byName = new Map<string, Array<{ key: string; values: string[] }>>();
  for (const row of dimensions) {
    const list = byName.get(row.name) ?? [];
    list.push({ key: row.key, values: row.dimension_values });
    byName.set(row.name, list);
  }
  return names.map((row) => ({
    name: row.name,
    points: row.points,
    lastSeen: isoOf(row.last_seen),
    dimensions: byName.get(row.name) ?? [],
  }));
}

export interface MetricQuery {
  range: TimeRange;
  bucketSeconds: number;
  name: string;
  aggregation: Aggregation;
  groupBy: string[];
  filters?: Filters | undefined;
}

/** Series per group (at most MAX_SERIES groups, the largest by point count), zero buckets absent. */
export async function queryMetric(engine: TelemetryEngine, projectId: string, query: MetricQuery) {
  const groupExprs = query.groupBy.map((key) =>
    key === 'serverName' ? sql`toString(server_name)` : sql`toString(dimensions[${param(key, 'String')}])`,
  );
  const group = sql`[${join(groupExprs, ', ')}]`;
  const where = sql`${ofProject(projectId)} AND name = ${param(query.name, 'String')} AND ${inRange('recorded_at', query.range)}${(query.filters ?? Filters.none).sql}`;
  const buckets = sql`SELECT ${group} AS grp, ${bucketOf('recorded_at', query.bucketSeconds)} AS t, ${raw(AGGREGATE_SQL[query.aggregation])} AS value`;
  // Grouped: one pass, keeping the MAX_SERIES groups with the most points (ranked over the
  // aggregated rows by a window, so the points are not read a second time to find them).
  const statement =
    groupExprs.length === 0
      ? sql`${buckets} FROM metric_points FINAL WHERE ${where} GROUP BY grp, t ORDER BY grp, t`
      : sql`SELECT grp, t, value FROM (
           SELECT grp, t, value, dense_rank() OVER (ORDER BY points DESC, grp) AS series_rank FROM (
             ${buckets}, sum(count()) OVER (PARTITION BY grp) AS points FROM metric_points FINAL WHERE ${where} GROUP BY grp, t))
          WHERE series_rank <= ${param(MAX_SERIES, 'UInt32')}
          ORDER BY grp, t`;
  const rows = await runQuery<{ grp: string[]; t: number; value: number | null }>(engine, 'metrics.query', statement);
  const series = new Map<
    string,
    { group: Record<string, string>; points: Array<{ t: number; value: number | null }> }
  >();
  for (const row of rows) {
    const id = JSON.stringify(row.grp);
    let entry = series.get(id);
    if (!entry) {
      entry = { group: Object.fromEntries(query.groupBy.map((key, index) => [key, row.grp[index] ?? ''])), points: [] };
      series.set(id, entry);
    }
    entry.points.push({ t: row.t, value: row.value });
  }
  return [...series.values()];
}
