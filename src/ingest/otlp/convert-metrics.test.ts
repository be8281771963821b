import { describe, expect, it } from 'vitest';
import type {
  OtlpHistogramPoint,
  OtlpMetric,
  OtlpMetricData,
  OtlpNumberPoint,
  OtlpSummaryPoint,
} from '../../core/classify/otlp-model.js';
import { keyValues, PROJECT_ID, RECEIVED_AT, type PlainAttributes } from '../../../test/support/test-spans.js';
import { convertMetrics } from './index.js';

const context = { projectId: PROJECT_ID, receivedAt: RECEIVED_AT };
const TIME = 1_700_000_000_000_000_000n;
const RESOURCE = { 'service.name': 'checkout', region: 'eu' };

const point = (
  value: number | undefined,
  attributes: PlainAttributes = {},
  overrides: Partial<OtlpNumberPoint> = {},
): OtlpNumberPoint => ({
  attributes: keyValues(attributes),
  startTimeUnixNano: 0n,
  timeUnixNano: TIME,
  value,
  flags: 0,
  ...overrides,
});

const summaryPoint = (
  count: number,
  sum: number,
  quantiles: [quantile: number, value: number][],
  overrides: Partial<OtlpSummaryPoint> = {},
): OtlpSummaryPoint => ({
  attributes: [],
  startTimeUnixNano: 0n,
  timeUnixNano: TIME,
  count,
  sum,
  quantileValues: quantiles.map(([quantile, value]) => ({ quantile, value })),
  flags: 0,
  ...overrides,
});

function convert(...metrics: [name: string, data: OtlpMetricData][]) {
  const otlpMetrics: OtlpMetric[] = metrics.map(([name, data]) => ({ name, description: '', unit: '', data }));
  return convertMetrics(
    {
      resourceMetrics: [
        {
          resource: { attributes: keyValues(RESOURCE) },
          scopeMetrics: [{ scope: { name: '', version: '', attributes: [] }, metrics: otlpMetrics }],
        },
      ],
    },
    context,
  );
}

const summary = (conversion: ReturnType<typeof convert>) =>
  conversion.points.map(({ name, value, dimensions }) => ({ name, value, dimensions }));

describe('metric conversion', () => {
  it('stores counters, up-down counters and gauges as is, under the instrument name', () => {
    const conversion = convert(
      ['orders.placed', { type: 'sum', isMonotonic: true, temporality: 'DELTA', points: [point(3, { region: 'us' })] }],
      ['queue.depth', { type: 'sum', isMonotonic: false, temporality: 'CUMULATIVE', points: [point(-2)] }],
      ['cpu.temperature', { type: 'gauge', points: [point(61.5)] }],
    );
    expect(summary(conversion)).toEqual([
      // A data-point attribute wins over a resource attribute of the same key.
      {
        name: 'orders.placed',
        value: 3,
        dimensions: { 'service.name': 'checkout', region: 'us', temporality: 'delta' },
      },
      {
        name: 'queue.depth',
        value: -2,
        dimensions: { 'service.name': 'checkout', region: 'eu', temporality: 'cumulative' },
      },
      { name: 'cpu.temperature', value: 61.5, dimensions: { 'service.name': 'checkout', region: 'eu' } },
    ]);
    expect(conversion.points[0]).toMatchObject({
      projectId: PROJECT_ID,
      recordedAt: TIME,
      serverName: 'checkout',
      source: 'otlp',
    });
    expect(conversion.rejected).toEqual({ count: 0, messages: [] });
  });

  it('turns a histogram into <name>.avg and <name>.count', () => {
    const histogram = (count: number, sum: number | undefined) => ({
      attributes: [],
      startTimeUnixNano: 0n,
      timeUnixNano: TIME,
      count,
      sum,
      flags: 0,
    });
    const conversion = convert([
      'http.duration',
      { type: 'histogram', temporality: 'DELTA', points: [histogram(4, 10), histogram(2, undefined), histogram(0, 0)] },
    ]);
    expect(summary(conversion).map(({ name, value }) => [name, value])).toEqual([
      ['http.duration.avg', 2.5],
      ['http.duration.count', 4],
      ['http.duration.count', 2],
      ['http.duration.count', 0],
    ]);
  });

  it('turns an exponential histogram into <name>.avg and <name>.count as it does a histogram, with its temporality', () => {
    const exponential = (
      count: number,
      sum: number | undefined,
      overrides: Partial<OtlpHistogramPoint> = {},
    ): OtlpHistogramPoint => ({
      attributes: keyValues({ route: '/a' }),
      startTimeUnixNano: 0n,
      timeUnixNano: TIME,
      count,
      sum,
      flags: 0,
      ...overrides,
    });
    const conversion = convert([
      'payload.size',
      {
        type: 'exponentialHistogram',
        temporality: 'CUMULATIVE',
        points: [
          exponential(4, 1000),
          exponential(2, undefined),
          exponential(0, 0),
          exponential(3, 9, { flags: 1 }),
          exponential(5, 5, { timeUnixNano: 0n }),
        ],
      },
    ]);
    const dimensions = { 'service.name': 'checkout', region: 'eu', route: '/a', temporality: 'cumulative' };
    expect(summary(conversion)).toEqual([
      { name: 'payload.size.avg', value: 250, dimensions },
      { name: 'payload.size.count', value: 4, dimensions },
      { name: 'payload.size.count', value: 2, dimensions },
      { name: 'payload.size.count', value: 0, dimensions },
    ]);
    expect(conversion.rejected).toEqual({ count: 1, messages: ['data points without time_unix_nano were rejected'] });
  });

  it('turns a summary into <name>.avg, <name>.count and the p50, p90, p95 and p99 it carries, as cumulative', () => {
    const conversion = convert([
      'rpc.latency',
      {
        type: 'summary',
        points: [
          summaryPoint(4, 10, [
            [0, 0.5],
            [0.5, 2],
            [0.75, 3],
            [0.9, 4],
            [0.95, 4.5],
            [0.99, 6],
            [1, 7],
          ]),
          summaryPoint(0, 0, [[0.5, 0]]),
        ],
      },
    ]);
    const dimensions = { 'service.name': 'checkout', region: 'eu', temporality: 'cumulative' };
    expect(summary(conversion)).toEqual([
      { name: 'rpc.latency.avg', value: 2.5, dimensions },
      { name: 'rpc.latency.count', value: 4, dimensions },
      { name: 'rpc.latency.p50', value: 2, dimensions },
      { name: 'rpc.latency.p90', value: 4, dimensions },
      { name: 'rpc.latency.p95', value: 4.5, dimensions },
      { name: 'rpc.latency.p99', value: 6, dimensions },
      // A zero count has no average.
      { name: 'rpc.latency.count', value: 0, dimensions },
      { name: 'rpc.latency.p50', value: 0, dimensions },
    ]);
    expect(conversion.points.every((metricPoint) => metricPoint.recordedAt === TIME)).toBe(true);
    expect(conversion.rejected).toEqual({ count: 0, messages: [] });
  });

  it('rejects malformed summary points and quantiles one by one, keeping the rest', () => {
    const conversion = convert([
      'gc.pause',
      {
        type: 'summary',
        points: [
          summaryPoint(2, 4, [[0.5, 1]], { timeUnixNano: 0n }),
          summaryPoint(2, 4, [
            [1.5, 9],
            [Number.NaN, 9],
            [0.5, 1],
            [0.5, 8],
            [0.9, Number.POSITIVE_INFINITY],
            [0.99, 3],
          ]),
          summaryPoint(1, 1, [[0.5, 1]], { flags: 1 }),
        ],
      },
    ]);
    expect(summary(conversion).map(({ name, value }) => [name, value])).toEqual([
      ['gc.pause.avg', 2],
      ['gc.pause.count', 2],
      ['gc.pause.p50', 1],
      ['gc.pause.p99', 3],
    ]);
    expect(conversion.rejected).toEqual({
      count: 5,
      messages: [
        'data points without time_unix_nano were rejected',
        'quantiles outside [0, 1] were rejected (gc.pause)',
        'repeated quantiles were rejected (gc.pause)',
        'data points with a non-finite value were rejected (gc.pause.p90)',
      ],
    });
  });

  it('rejects points without a time, a value or a finite value; skips points flagged as having no recorded value', () => {
    const conversion = convert([
      'g',
      {
        type: 'gauge',
        points: [
          point(1, {}, { timeUnixNano: 0n }),
          point(undefined),
          point(Number.NaN),
          point(Number.POSITIVE_INFINITY),
          point(5, {}, { flags: 1 }),
          point(7),
        ],
      },
    ]);
    expect(summary(conversion).map(({ value }) => value)).toEqual([7]);
    expect(conversion.rejected.count).toBe(4);
  });

  it('dedup keys follow name, time, value and dimensions', () => {
    const keys = convert(
      ['a', { type: 'gauge', points: [point(1), point(1), point(2), point(1, { host: 'x' })] }],
      ['b', { type: 'gauge', points: [point(1)] }],
    ).points.map((metricPoint) => metricPoint.dedupKey);
    expect(keys[0]).toBe(keys[1]);
    expect(new Set(keys).size).toBe(4);
  });
});
