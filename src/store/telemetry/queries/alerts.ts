/**
 * The two reads alert rules need that no read route has: the busiest issue of a window (issue
 * frequency) and one endpoint's, or all endpoints', figures over a window (latency, error rate)
 * — the latter built on endpointParts, the same figures the endpoint list and stats use. Metric
 * and log rules reuse queryMetric and searchLogs. Each rule costs one bounded statement.
 */
import type { TelemetryEngine } from '../engine.js';
import { ROLLED_APDEX_MS, endpointParts } from './rollups.js';
import { empty, param, sql } from '../sql.js';
import { inRange, ofProject, runQuery, type TimeRange } from './run.js';

/** The issue with the most occurrences in the range (or the given one) and its count. */
export async function busiestIssue(
  engine: TelemetryEngine,
  projectId: string,
  range: TimeRange,
  hash: string | null,
): Promise<{ hash: string; count: number } | null> {
  const ofHash = hash === null ? empty : sql` AND hash = ${param(hash, 'String')}`;
  const rows = await runQuery<{ hash: string; count: number }>(
    engine,
    'alerts.issue-frequency',
    sql`SELECT hash, count() AS count FROM exceptions FINAL WHERE ${ofProject(projectId)} AND ${inRange('recorded_at', range)}${ofHash} GROUP BY hash ORDER BY count DESC, hash LIMIT 1`,
  );
  return rows[0] ?? null;
}

export interface EndpointWindow {
  requests: number;
  serverErrors: number;
  p95Ms: number | null;
  p99Ms: number | null;
}

/** Requests, server errors and latency quantiles of one endpoint (by name) or of all, over the range. */
export async function endpointWindow(
  engine: TelemetryEngine,
  projectId: string,
  range: TimeRange,
  endpoint: string | null,
): Promise<EndpointWindow> {
  const parts = await endpointParts(engine, projectId, {
    range,
    filters: endpoint === null ? empty : sql` AND name = ${param(endpoint, 'String')}`,
    filtersRollable: true,
    thresholdMs: ROLLED_APDEX_MS,
  });
  const rows = await runQuery<{ n: number; s: number; lat: number; p95: number | null; p99: number | null }>(
    engine,
    'alerts.endpoint-window',
    sql`SELECT requests AS n, server_errors AS s, latency_requests AS lat, q[2] / 1e6 AS p95, q[3] / 1e6 AS p99 FROM (SELECT ${parts.figures} FROM ${parts.source})`,
  );
  const row = rows[0];
  const measured = (row?.lat ?? 0) > 0;
  return {
    requests: row?.n ?? 0,
    serverErrors: row?.s ?? 0,
    p95Ms: measured ? (row?.p95 ?? null) : null,
    p99Ms: measured ? (row?.p99 ?? null) : null,
  };
}
