/**
 * Apdex and the Impact score of endpoints: pure functions over aggregated counts, no I/O.
 *
 * Apdex (threshold T): (satisfied + tolerating / 2) / total, where a request is satisfied when
 * its duration is <= T and tolerating when it is <= 4T. Streaming responses (SSE, WebSocket) are
 * not counted: their duration is the life of a stream, not a latency.
 *
 * Impact, in [0, 1], higher is worse; a weighted sum of five penalties each in [0, 1]:
 *
 * | component                  | penalty                                              | weight |
 * |----------------------------|------------------------------------------------------|--------|
 * | Apdex                      | 1 - apdex (0 when no non-streaming request)          | 0.30   |
 * | error rate                 | 5xx / requests                                       | 0.25   |
 * | P99                        | clamp((P99 - T) / 3T): 0 at P99 <= T, 1 at P99 >= 4T  | 0.15   |
 * | client-error rate          | 4xx / requests; 0 for UNMATCHED                      | 0.10   |
 * | volume-weighted error rate | error rate x requests / busiest endpoint's requests  | 0.20   |
 *
 * The `reason` names the components that contribute, largest first.
 */

export const UNMATCHED = 'UNMATCHED';

export const IMPACT_WEIGHTS = {
  apdex: 0.3,
  errorRate: 0.25,
  p99: 0.15,
  clientErrorRate: 0.1,
  volumeWeightedErrorRate: 0.2,
} as const;

export type ImpactComponent = keyof typeof IMPACT_WEIGHTS;

/** Counts of one endpoint over a time range. Latency counts cover non-streaming requests only. */
export interface EndpointCounts {
  name: string;
  requests: number;
  /** Status >= 500. */
  serverErrors: number;
  /** Status 400-499. */
  clientErrors: number;
  /** Non-streaming requests, and those of them within T and within 4T. */
  latencyRequests: number;
  satisfied: number;
  tolerating: number;
  /** P99 of non-streaming durations in milliseconds; null without any. */
  p99Ms: number | null;
}

export interface Impact {
  score: number;
  apdex: number | null;
  errorRate: number;
  clientErrorRate: number;
  volumeWeightedErrorRate: number;
  components: Record<ImpactComponent, number>;
  reason: string;
}

/** Apdex from satisfied and tolerating counts (tolerating excludes satisfied); null when total is 0. */
export function apdex(satisfied: number, tolerating: number, total: number): number | null {
  if (total <= 0) return null;
  return (satisfied + tolerating / 2) / total;
}

/** Classifies one duration against T: the unit of the Apdex counts. */
export function apdexZone(durationMs: number, thresholdMs: number): 'satisfied' | 'tolerating' | 'frustrated' {
  if (durationMs <= thresholdMs) return 'satisfied';
  if (durationMs <= 4 * thresholdMs) return 'tolerating';
  return 'frustrated';
}

const clamp01 = (value: number): number => Math.min(1, Math.max(0, value));
const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;

/**
 * The Impact of one endpoint. `busiestRequests` is the request count of the busiest endpoint of
 * the same project and range (the volume reference of the volume-weighted error rate).
 */
export function impactOf(counts: EndpointCounts, thresholdMs: number, busiestRequests: number): Impact {
  const requests = counts.requests;
  const errorRate = requests > 0 ? counts.serverErrors / requests : 0;
  const clientErrorRate = counts.name === UNMATCHED || requests === 0 ? 0 : counts.clientErrors / requests;
  const score = apdex(counts.satisfied, counts.tolerating, counts.latencyRequests);
  const volumeShare = busiestRequests > 0 ? clamp01(requests / busiestRequests) : 0;
  const volumeWeightedErrorRate = errorRate * volumeShare;
  const p99Penalty =
    counts.p99Ms === null || thresholdMs <= 0 ? 0 : clamp01((counts.p99Ms - thresholdMs) / (3 * thresholdMs));
  const components: Record<ImpactComponent, number> = {
    apdex: score === null ? 0 : 1 - score,
    errorRate,
    p99: p99Penalty,
    clientErrorRate,
    volumeWeightedErrorRate,
  };
  let total = 0;
  for (const key of Object.keys(IMPACT_WEIGHTS) as ImpactComponent[]) total += IMPACT_WEIGHTS[key] * components[key];
  return {
    score: round6(total),
    apdex: score,
    errorRate,
    clientErrorRate,
    volumeWeightedErrorRate,
    components,
    reason: reasonOf(components, {
      apdex: score,
      errorRate,
      clientErrorRate,
      p99Ms: counts.p99Ms,
      thresholdMs,
      volumeShare,
    }),
  };
}

function reasonOf(
  components: Record<ImpactComponent, number>,
  facts: {
    apdex: number | null;
    errorRate: number;
    clientErrorRate: number;
    p99Ms: number | null;
    thresholdMs: number;
    volumeShare: number;
  },
): string {
  const parts = (Object.keys(IMPACT_WEIGHTS) as ImpactComponent[])
    .map((key) => ({ key, contribution: IMPACT_WEIGHTS[key] * components[key] }))
    .filter((part) => part.contribution > 0)
    .sort((a, b) => b.contribution - a.contribution);
  if (parts.length === 0) return 'healthy: every request within the Apdex threshold, no errors';
  const text = (key: ImpactComponent): string => {
    switch (key) {
      case 'apdex':
        return `Apdex ${(facts.apdex ?? 1).toFixed(2)} (T = ${facts.thresholdMs} ms)`;
      case 'errorRate':
        return `${pct(facts.errorRate)} server errors`;
      case 'p99':
        return `P99 ${Math.round(facts.p99Ms ?? 0)} ms over T = ${facts.thresholdMs} ms`;
      case 'clientErrorRate':
        return `${pct(facts.clientErrorRate)} client errors`;
      case 'volumeWeightedErrorRate':
        return `server errors on ${pct(facts.volumeShare)} of the busiest endpoint's traffic`;
    }
  };
  return parts
    .slice(0, 3)
    .map((part) => text(part.key))
    .join('; ');
}

const round6 = (value: number): number => Math.round(value * 1e6) / 1e6;

/** Task ranking: count x (P95 - P50), durations in milliseconds. */
export function taskRank(count: number, p50Ms: number, p95Ms: number): number {
  return count * Math.max(0, p95Ms - p50Ms);
}
