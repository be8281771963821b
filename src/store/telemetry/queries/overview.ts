/**
 * Homepage figures and the dashboard's bucketed series across the project's telemetry.
 * Counting reads deduplicate with FINAL (but for logs and metric points: see otherStats); distinct
 * counts (uniqExact) need no deduplication.
 * Endpoint figures take whole hours from the hourly rollup (endpointParts); P95 is of
 * non-streaming requests, as everywhere latency is scored.
 */
import type { TelemetryEngine } from '../engine.js';
import { endpointAggregatesWithTotal, taskFailed } from './entities.js';
import { ROLLED_APDEX_MS, endpointParts } from './rollups.js';
import { empty, sql } from '../sql.js';
import { bucketOf, inRange, ofProject, runQuery, type TimeRange } from './run.js';

export interface Stats {
  requests: number;
  serverErrors: number;
  clientErrors: number;
  errorRate: number;
  p95Ms: number | null;
  tasks: number;
  taskFailures: number;
  exceptions: number;
  issues: number;
  aiCalls: number;
  aiCost: number;
  sessions: number;
  /** Log records and metric points received: not headline figures, but home counts them as data. */
  logs: number;
  metricPoints: number;
}

export async function projectStats(engine: TelemetryEngine, projectId: string, range: TimeRange): Promise<Stats> {
  const parts = await endpointParts(engine, projectId, {
    range,
    filters: empty,
    filtersRollable: true,
    thresholdMs: ROLLED_APDEX_MS,
  });
  const [endpoints, others] = await Promise.all([
    runQuery<{ n: number; s: number; c: number; p95: number | null }>(
      engine,
      'stats.endpoints',
      sql`SELECT requests AS n, server_errors AS s, client_errors AS c, if(latency_requests = 0, NULL, q[2] / 1e6) AS p95
         FROM (SELECT ${parts.figures} FROM ${parts.source})`,
    ),
    otherStats(engine, projectId, range),
  ]);
  const e = endpoints[0];
  return statsOf(
    { requests: e?.n ?? 0, serverErrors: e?.s ?? 0, clientErrors: e?.c ?? 0, p95Ms: e?.p95 ?? null },
    others,
  );
}

/**
 * Home's figures and its top endpoints by Impact in one read of the endpoints (the per-name
 * rows and the totals from one GROUPING SETS statement) and one of each other table.
 */
export async function homeOverview(engine: TelemetryEngine, projectId: string, range: TimeRange, thresholdMs: number) {
  const [endpoints, others] = await Promise.all([
    endpointAggregatesWithTotal(engine, projectId, { range, thresholdMs }),
    otherStats(engine, projectId, range),
  ]);
  const total = endpoints.total;
  const stats = statsOf(
    {
      requests: total?.requests ?? 0,
      serverErrors: total?.serverErrors ?? 0,
      clientErrors: total?.clientErrors ?? 0,
      p95Ms: total?.p95Ms ?? null,
    },
    others,
  );
  return { stats, endpoints: endpoints.rows };
}

type EndpointStats = Pick<Stats, 'requests' | 'serverErrors' | 'clientErrors' | 'p95Ms'>;
type OtherStats = Omit<Stats, keyof EndpointStats | 'errorRate'>;

function statsOf(endpoints: EndpointStats, others: OtherStats): Stats {
  const { requests } = endpoints;
  return {
    ...endpoints,
    errorRate: requests > 0 ? endpoints.serverErrors / requests : 0,
    p95Ms: requests > 0 ? endpoints.p95Ms : null,
    ...others,
  };
}

/** The figures of the tables other than endpoints: one statement each, run together. */
async function otherStats(engine: TelemetryEngine, projectId: string, range: TimeRange): Promise<OtherStats> {
  const project = ofProject(projectId);
  const where = (column: string) => sql`${project} AND ${inRange(column, range)}`;
  const [tasks, exceptions, ai, sessions, logs, metricPoints] = await Promise.all([
    runQuery<{ n: number; f: number }>(
      engine,
      'stats.tasks',
      sql`SELECT count() AS n, countIf(${taskFailed(projectId, range)}) AS f FROM tasks FINAL WHERE ${where('recorded_at')}`,
    ),
    runQuery<{ n: number; h: number }>(
      engine,
      'stats.exceptions',
      sql`SELECT count() AS n, uniqExact(hash) AS h FROM exceptions FINAL WHERE ${where('recorded_at')}`,
    ),
    runQuery<{ n: number; cost: number }>(
      engine,
      'stats.ai',
      sql`SELECT count() AS n, sum(total_cost) AS cost FROM ai_traces FINAL WHERE ${where('recorded_at')}`,
    ),
    runQuery<{ n: number }>(
      engine,
      'stats.sessions',
      sql`SELECT uniqExact(id) AS n FROM sessions WHERE ${where('started_at')}`,
    ),
    // The two busiest tables, counted as received (no FINAL, whose merge on the sort key would cost
    // home most of its time on a project sending millions of log lines): a re-sent batch counts
    // again until its parts merge, which is what "received" means.
    runQuery<{ n: number }>(engine, 'stats.logs', sql`SELECT count() AS n FROM logs WHERE ${where('timestamp')}`),
    runQuery<{ n: number }>(
      engine,
      'stats.metrics',
      sql`SELECT count() AS n FROM metric_points WHERE ${where('recorded_at')}`,
    ),
  ]);
  return {
    tasks: tasks[0]?.n ?? 0,
    taskFailures: tasks[0]?.f ?? 0,
    exceptions: exceptions[0]?.n ?? 0,
    issues: exceptions[0]?.h ?? 0,
    aiCalls: ai[0]?.n ?? 0,
    aiCost: ai[0]?.cost ?? 0,
    sessions: sessions[0]?.n ?? 0,
    logs: logs[0]?.n ?? 0,
    metricPoints: metricPoints[0]?.n ?? 0,
  };
}

/** Per bucket: requests, server errors, P95 of requests, exceptions, task runs. */
export async function projectSeries(
  engine: TelemetryEngine,
  projectId: string,
  range: TimeRange,
  bucketSeconds: number,
) {
  const where = sql`${ofProject(projectId)} AND ${inRange('recorded_at', range)}`;
  const bucket = bucketOf('recorded_at', bucketSeconds);
  const parts = await endpointParts(engine, projectId, {
    range,
    filters: empty,
    filtersRollable: true,
    thresholdMs: ROLLED_APDEX_MS,
    bucketSeconds,
  });
  const [requests, exceptions, tasks] = await Promise.all([
    runQuery<{ t: number; n: number; s: number; p95: number | null }>(
      engine,
      'dashboard.requests',
      sql`SELECT h_bucket AS t, ${parts.figures}, requests AS n, server_errors AS s, if(latency_requests = 0, NULL, q[2] / 1e6) AS p95
         FROM ${parts.source}
        GROUP BY t`,
    ),
    runQuery<{ t: number; n: number }>(
      engine,
      'dashboard.exceptions',
      sql`SELECT ${bucket} AS t, count() AS n FROM exceptions FINAL WHERE ${where} GROUP BY t`,
    ),
    runQuery<{ t: number; n: number }>(
      engine,
      'dashboard.tasks',
      sql`SELECT ${bucket} AS t, count() AS n FROM tasks FINAL WHERE ${where} GROUP BY t`,
    ),
  ]);
  return {
    requests: new Map(requests.map((row) => [row.t, row.n])),
    serverErrors: new Map(requests.map((row) => [row.t, row.s])),
    p95Ms: new Map(requests.map((row) => [row.t, row.p95])),
    exceptions: new Map(exceptions.map((row) => [row.t, row.n])),
    tasks: new Map(tasks.map((row) => [row.t, row.n])),
  };
}
