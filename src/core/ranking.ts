/**
 * Ranking and sorting of the aggregated endpoint and task lists: Impact and Apdex for endpoints
 * (impact.ts), count x (P95 - P50) for tasks, and the sort keys each list's `orderBy` names.
 * Pure: the lists are bounded group-bys read whole, ranked and paged in memory.
 */
import { impactOf, taskRank, type EndpointCounts } from './impact.js';

/** One endpoint's (or route's) figures over a range, as the telemetry store answers them. */
export interface EndpointAggregate extends EndpointCounts {
  method: string;
  route: string;
  streamingRequests: number;
  p50Ms: number | null;
  p95Ms: number | null;
  /** RFC 3339, or null when unknown. */
  lastSeen: string | null;
}

/** Scores aggregates with Apdex and Impact; the busiest endpoint is the volume reference. */
export function rankEndpoints(aggregates: readonly EndpointAggregate[], thresholdMs: number) {
  const busiest = aggregates.reduce((max, row) => Math.max(max, row.requests), 0);
  return aggregates.map((row) => {
    const impact = impactOf(row, thresholdMs, busiest);
    return {
      name: row.name,
      method: row.method,
      route: row.route,
      requests: row.requests,
      serverErrors: row.serverErrors,
      clientErrors: row.clientErrors,
      streamingRequests: row.streamingRequests,
      streaming: row.streamingRequests > 0,
      p50Ms: row.p50Ms,
      p95Ms: row.p95Ms,
      p99Ms: row.p99Ms,
      apdex: impact.apdex,
      errorRate: impact.errorRate,
      clientErrorRate: impact.clientErrorRate,
      impact: impact.score,
      impactComponents: impact.components,
      reason: impact.reason,
      lastSeen: row.lastSeen,
    };
  });
}

export type RankedEndpoint = ReturnType<typeof rankEndpoints>[number];

type SortKeys<T> = Record<string, (item: T) => number | string>;

export const ENDPOINT_SORT_KEYS = {
  impact: (i) => i.impact,
  requests: (i) => i.requests,
  p50: (i) => i.p50Ms ?? -1,
  p95: (i) => i.p95Ms ?? -1,
  p99: (i) => i.p99Ms ?? -1,
  errorRate: (i) => i.errorRate,
  clientErrorRate: (i) => i.clientErrorRate,
  apdex: (i) => i.apdex ?? 2,
  name: (i) => i.name,
  lastSeen: (i) => i.lastSeen ?? '',
} satisfies SortKeys<RankedEndpoint>;

export type EndpointOrder = keyof typeof ENDPOINT_SORT_KEYS;
export const ENDPOINT_ORDER = Object.keys(ENDPOINT_SORT_KEYS) as EndpointOrder[];

/** One task's figures over a range, as the telemetry store answers them. */
export interface TaskAggregate {
  name: string;
  count: number;
  failures: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  lastSeen: string | null;
}

export function rankTasks(aggregates: readonly TaskAggregate[]) {
  return aggregates.map((row) => ({ ...row, rank: taskRank(row.count, row.p50Ms, row.p95Ms) }));
}

export type RankedTask = ReturnType<typeof rankTasks>[number];

export const TASK_SORT_KEYS = {
  rank: (i) => i.rank,
  count: (i) => i.count,
  p50: (i) => i.p50Ms,
  p95: (i) => i.p95Ms,
  p99: (i) => i.p99Ms,
  failures: (i) => i.failures,
  name: (i) => i.name,
  lastSeen: (i) => i.lastSeen ?? '',
} satisfies SortKeys<RankedTask>;

export type TaskOrder = keyof typeof TASK_SORT_KEYS;
export const TASK_ORDER = Object.keys(TASK_SORT_KEYS) as TaskOrder[];

/** Sorts in place by `key`, ties by name ascending. */
export function sortItems<T extends { name: string }>(
  items: T[],
  key: (item: T) => number | string,
  direction: 'asc' | 'desc',
): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return items.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x < y) return -sign;
    if (x > y) return sign;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}
