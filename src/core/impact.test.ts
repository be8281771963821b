import { describe, expect, it } from 'vitest';
import { apdex, apdexZone, impactOf, taskRank, type EndpointCounts } from './impact.js';

describe('apdex', () => {
  it('counts satisfied fully and tolerating half', () => {
    // 6 satisfied, 2 tolerating, 2 frustrated: (6 + 1) / 10 = 0.7
    expect(apdex(6, 2, 10)).toBeCloseTo(0.7, 12);
    expect(apdex(0, 0, 0)).toBeNull();
  });
  it('zones at T and 4T inclusive', () => {
    expect(apdexZone(100, 100)).toBe('satisfied');
    expect(apdexZone(101, 100)).toBe('tolerating');
    expect(apdexZone(400, 100)).toBe('tolerating');
    expect(apdexZone(401, 100)).toBe('frustrated');
  });
});

/** An endpoint's counts: the given ones, every other count 0 and no P99. */
const countsOf = (counts: Partial<EndpointCounts> & { name: string }): EndpointCounts => ({
  requests: 0,
  serverErrors: 0,
  clientErrors: 0,
  latencyRequests: 0,
  satisfied: 0,
  tolerating: 0,
  p99Ms: null,
  ...counts,
});

describe('impactOf', () => {
  it('is 0 for a healthy endpoint', () => {
    const impact = impactOf(
      countsOf({ name: 'GET /a', requests: 4, latencyRequests: 4, satisfied: 4, p99Ms: 50 }),
      100,
      4,
    );
    expect(impact.score).toBe(0);
    expect(impact.reason).toMatch(/healthy/);
  });

  it('combines the five components by hand', () => {
    // T = 100 ms. 10 requests: 2 x 5xx, 1 x 4xx; apdex = (5 + 3/2) / 10 = 0.65 -> penalty 0.35
    // error rate 0.2; P99 250 ms -> (250 - 100) / 300 = 0.5; client 0.1;
    // busiest endpoint 20 requests -> share 0.5 -> volume-weighted 0.1.
    // score = 0.3*0.35 + 0.25*0.2 + 0.15*0.5 + 0.1*0.1 + 0.2*0.1 = 0.105 + 0.05 + 0.075 + 0.01 + 0.02 = 0.26
    const impact = impactOf(
      countsOf({
        name: 'GET /b',
        requests: 10,
        serverErrors: 2,
        clientErrors: 1,
        latencyRequests: 10,
        satisfied: 5,
        tolerating: 3,
        p99Ms: 250,
      }),
      100,
      20,
    );
    expect(impact.apdex).toBeCloseTo(0.65, 12);
    expect(impact.components.p99).toBeCloseTo(0.5, 12);
    expect(impact.volumeWeightedErrorRate).toBeCloseTo(0.1, 12);
    expect(impact.score).toBeCloseTo(0.26, 6);
    expect(impact.reason.split('; ')[0]).toMatch(/^Apdex 0.65/);
  });

  it('ignores client errors of UNMATCHED and latency without non-streaming requests', () => {
    // 4 requests, all 404, all streaming: only the client-error component could count, and UNMATCHED has none.
    const impact = impactOf(countsOf({ name: 'UNMATCHED', requests: 4, clientErrors: 4 }), 100, 4);
    expect(impact.score).toBe(0);
    expect(impact.apdex).toBeNull();
  });

  it('caps the P99 penalty at 4T', () => {
    const impact = impactOf(countsOf({ name: 'GET /c', requests: 1, latencyRequests: 1, p99Ms: 10_000 }), 100, 1);
    // apdex 0 -> 0.3; p99 capped 1 -> 0.15; total 0.45
    expect(impact.score).toBeCloseTo(0.45, 6);
  });
});

describe('taskRank', () => {
  it('is count x (P95 - P50)', () => {
    expect(taskRank(10, 20, 50)).toBe(300);
    expect(taskRank(10, 50, 20)).toBe(0);
  });
});
