/**
 * The two reads alert rules need that no read route has: the busiest issue of a window (issue
 * frequency) and one endpoint's, or all endpoints', figures over a window (latency, error rate)
 * — the latter built on endpointParts, the same figures the endpoint list and stats use. Metric
 * and log rules reuse queryMetric and searchLogs. Each rule costs one bounded statement.
 */
import type { TelemetryEngine } from '../engine.js';
import { ROLLED_APDEX_MS, endpointParts } from './rollups.js';
import { inRange, runQuery, type TimeRange } from './run.js';

/** The issue with the most occurrences in the range (or the given one) and its count. */
export async function busiestIssue(
  engine: TelemetryEngine,
  projectId: string,
  range: TimeRange,
  hash: string | null,
): Promise<{ hash: string; count: number } | null> {
  const params: Record<string, unknown> = { project: projectId };
  let where = `project_id = {project:UUID} AND ${inRange('recorded_at', range, params)}`;
  if (hash !== null) {
    params.hash = hash;
    where += ' AND hash = {hash:String}';
  }
  const rows = await runQuery<{ hash: string; count: number }>(
    engine,
    'alerts.issue-frequency',
    `SELECT hash, count() AS count FROM exceptions FINAL WHERE ${where} GROUP BY hash ORDER BY count DESC, hash LIMIT 1`,
    params,
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
  const params: Record<string, unknown> = {};
  if (endpoint !== null) params.endpoint = endpoint;
  const parts = await endpointParts(
    engine,
    projectId,
    {
      range,
      filters: endpoint === null ? '' : ' AND name = {endpoint:String}',
      filtersRollable: true,
      thresholdMs: ROLLED_APDEX_MS,
    },
    params,
  );
  const rows = await runQuery<{ n: number; s: number; lat: number; p95: number | null; p99: number | null }>(
    engine,
    'alerts.endpoint-window',
    `SELECT requests AS n, server_errors AS s, latency_requests AS lat, q[2] / 1e6 AS p95, q[3] / 1e6 AS p99 FROM (SELECT ${parts.figures} FROM ${parts.sql})`,
    params,
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
