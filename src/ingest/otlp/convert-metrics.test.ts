import { describe, expect, it } from 'vitest';
import type { OtlpMetric, OtlpMetricData, OtlpNumberPoint } from '../../core/classify/otlp-model.js';
import { keyValues, PROJECT_ID, RECEIVED_AT, type PlainAttributes } from '../../core/classify/test-spans.js';
import { convertMetrics } from './index.js';

const context = { projectId: PROJECT_ID, receivedAt: RECEIVED_AT };
const TIME = 1_700_000_000_000_000_000n;
const RESOURCE = { 'service.name': 'checkout', region: 'eu' };

const point = (value: number | undefined, attributes: PlainAttributes = {}, overrides: Partial<OtlpNumberPoint> = {}): OtlpNumberPoint => ({
  attributes: keyValues(attributes),
  startTimeUnixNano: 0n,
  timeUnixNano: TIME,
  value,
  flags: 0,
  ...overrides,
});

function convert(...metrics: [name: string, data: OtlpMetricData][]) {
  const otlpMetrics: OtlpMetric[] = metrics.map(([name, data]) => ({ name, description: '', unit: '', data }));
  return convertMetrics({ resourceMetrics: [{ resource: { attributes: keyValues(RESOURCE) }, scopeMetrics: [{ scope: { name: '', version: '', attributes: [] }, metrics: otlpMetrics }] }] }, context);
}

const summary = (conversion: ReturnType<typeof convert>) => conversion.points.map(({ name, value, dimensions }) => ({ name, value, dimensions }));

describe('metric conversion', () => {
  it('stores counters, up-down counters and gauges as is, under the instrument name', () => {
    const conversion = convert(
      ['orders.placed', { type: 'sum', isMonotonic: true, temporality: 'DELTA', points: [point(3, { region: 'us' })] }],
      ['queue.depth', { type: 'sum', isMonotonic: false, temporality: 'CUMULATIVE', points: [point(-2)] }],
      ['cpu.temperature', { type: 'gauge', points: [point(61.5)] }],
    );
    expect(summary(conversion)).toEqual([
      // A data-point attribute wins over a resource attribute of the same key.
      { name: 'orders.placed', value: 3, dimensions: { 'service.name': 'checkout', region: 'us', temporality: 'delta' } },
      { name: 'queue.depth', value: -2, dimensions: { 'service.name': 'checkout', region: 'eu', temporality: 'cumulative' } },
      { name: 'cpu.temperature', value: 61.5, dimensions: { 'service.name': 'checkout', region: 'eu' } },
    ]);
    expect(conversion.points[0]).toMatchObject({ projectId: PROJECT_ID, recordedAt: TIME, serverName: 'checkout', source: 'otlp' });
    expect(conversion.rejected).toEqual({ count: 0, messages: [] });
  });

  it('turns a histogram into <name>.avg and <name>.count', () => {
    const histogram = (count: number, sum: number | undefined) => ({ attributes: [], startTimeUnixNano: 0n, timeUnixNano: TIME, count, sum, flags: 0 });
    const conversion = convert(['http.duration', { type: 'histogram', temporality: 'DELTA', points: [histogram(4, 10), histogram(2, undefined), histogram(0, 0)] }]);
    expect(summary(conversion).map(({ name, value }) => [name, value])).toEqual([
      ['http.duration.avg', 2.5],
      ['http.duration.count', 4],
      ['http.duration.count', 2],
      ['http.duration.count', 0],
    ]);
  });

  it('drops exponential histograms and summaries, counting their points as rejected', () => {
    const conversion = convert(['latency', { type: 'exponentialHistogram', pointCount: 3 }], ['gc', { type: 'summary', pointCount: 2 }]);
    expect(conversion.points).toEqual([]);
    expect(conversion.rejected).toEqual({
      count: 5,
      messages: ['ExponentialHistogram metrics are not stored (latency)', 'Summary metrics are not stored (gc)'],
    });
  });

  it('rejects points without a time, a value or a finite value; skips points flagged as having no recorded value', () => {
    const conversion = convert([
      'g',
      { type: 'gauge', points: [point(1, {}, { timeUnixNano: 0n }), point(undefined), point(Number.NaN), point(Number.POSITIVE_INFINITY), point(5, {}, { flags: 1 }), point(7)] },
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
