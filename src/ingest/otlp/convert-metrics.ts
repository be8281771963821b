/**
 * OTLP metrics to metric points, per the spec's "Metric conversion on the OTLP route":
 * - Gauge, and Sum (Counter when monotonic, UpDownCounter when not): one point per data point,
 *   under the instrument name;
 * - Histogram and ExponentialHistogram: `<name>.avg` (sum / count) and `<name>.count` per data
 *   point; `.avg` is left out when the point has no sum (instruments that saw negative values omit
 *   it) or a zero count; buckets are not kept;
 * - Summary: the same `.avg` and `.count`, plus `<name>.p50`, `.p90`, `.p95`, `.p99` from the
 *   quantile values 0.5, 0.9, 0.95, 0.99 where the point has them (other quantiles are not kept).
 *   The spec lets ExponentialHistogram and Summary be dropped; storing them is a superset.
 *
 * Temporality is stored, not converted. Sums and histograms get the dimension
 * `temporality` = `delta` | `cumulative` (`unspecified` when the sender left it out): a delta
 * point is the change over its interval, a cumulative point the running total since the series'
 * start time. Converting cumulative to delta would need the previous point of every series, state
 * this pure step does not have (and would lose the first point of each series); reads that want
 * rates take differences between consecutive cumulative points, where a drop marks a reset. A
 * cumulative UpDownCounter point is a level and reads as is; a cumulative histogram's `.avg` is the
 * mean since the series' start. A summary has no temporality field because the proto defines its
 * count and sum as cumulative, so its points get `cumulative`.
 *
 * Dimensions are the resource attributes overlaid with the data-point attributes (a data-point key
 * wins), then `temporality`.
 */
import { anyValueToString, flattenAttributes, serviceOf, setOwn } from '../../core/classify/attributes.js';
import type { ClassifyContext } from '../../core/classify/classify-traces.js';
import {
  type KeyValue,
  type OtlpHistogramPoint,
  type OtlpMetric,
  type OtlpMetricsRequest,
  type OtlpNumberPoint,
  type OtlpSummaryPoint,
  type OtlpTemporality,
  DATA_POINT_FLAG_NO_RECORDED_VALUE,
} from '../../core/classify/otlp-model.js';
import { type Rejections, reject } from '../../core/classify/rejections.js';
import type { Attributes, MetricPointRecord, UnixNanos } from '../../core/records.js';
import { metricDedupKey } from '../report/keys.js';

export interface MetricsConversion {
  points: MetricPointRecord[];
  /** Data points not stored: points without a time or a value, non-finite values, malformed quantiles. */
  rejected: Rejections;
}

export const TEMPORALITY_DIMENSION = 'temporality';

/** The Summary quantiles kept, and the suffix each is stored under. */
const QUANTILE_SUFFIXES: ReadonlyMap<number, string> = new Map([
  [0.5, 'p50'],
  [0.9, 'p90'],
  [0.95, 'p95'],
  [0.99, 'p99'],
]);

/** What the points of one resource share, and where they and their rejections go. */
interface ResourcePoints {
  context: ClassifyContext;
  serverName: string;
  resourceDimensions: Attributes;
  points: MetricPointRecord[];
  rejected: Rejections;
}

export function convertMetrics(request: OtlpMetricsRequest, context: ClassifyContext): MetricsConversion {
  const conversion: MetricsConversion = { points: [], rejected: { count: 0, messages: [] } };
  for (const { resource, scopeMetrics } of request.resourceMetrics) {
    const target: ResourcePoints = {
      context,
      serverName: serviceOf(resource).name,
      resourceDimensions: flattenAttributes(resource.attributes),
      points: conversion.points,
      rejected: conversion.rejected,
    };
    for (const { metrics } of scopeMetrics) for (const metric of metrics) convertMetric(metric, target);
  }
  return conversion;
}

function convertMetric({ name, data }: OtlpMetric, target: ResourcePoints): void {
  switch (data.type) {
    case 'gauge':
      for (const point of data.points) addNumberPoint(name, point, undefined, target);
      return;
    case 'sum':
      for (const point of data.points) addNumberPoint(name, point, data.temporality, target);
      return;
    case 'histogram':
    case 'exponentialHistogram':
      for (const point of data.points) addCountAndAverage(name, point, data.temporality, target);
      return;
    case 'summary':
      for (const point of data.points) {
        const dimensions = addCountAndAverage(name, point, 'CUMULATIVE', target);
        if (dimensions !== undefined) addQuantiles(name, point, dimensions, target);
      }
      return;
    case 'none':
      return;
  }
}

function addNumberPoint(
  name: string,
  point: OtlpNumberPoint,
  temporality: OtlpTemporality | undefined,
  target: ResourcePoints,
): void {
  if (!hasTime(point.timeUnixNano, target) || (point.flags & DATA_POINT_FLAG_NO_RECORDED_VALUE) !== 0) return;
  if (point.value === undefined) {
    reject(target.rejected, `data points without a value were rejected (${name})`);
    return;
  }
  addPoint(name, point.value, point.timeUnixNano, dimensionsOf(point.attributes, temporality, target), target);
}

/** `<name>.avg` and `<name>.count`; returns the point's dimensions, undefined when it was not stored. */
function addCountAndAverage(
  name: string,
  point: OtlpHistogramPoint,
  temporality: OtlpTemporality,
  target: ResourcePoints,
): Attributes | undefined {
  if (!hasTime(point.timeUnixNano, target) || (point.flags & DATA_POINT_FLAG_NO_RECORDED_VALUE) !== 0) return undefined;
  const dimensions = dimensionsOf(point.attributes, temporality, target);
  if (point.sum !== undefined && point.count > 0)
    addPoint(`${name}.avg`, point.sum / point.count, point.timeUnixNano, dimensions, target);
  addPoint(`${name}.count`, point.count, point.timeUnixNano, dimensions, target);
  return dimensions;
}

/**
 * `<name>.p50` ... `.p99` of a summary point. A quantile outside [0, 1], or one the point repeats
 * (the proto wants them strictly increasing), is a sender's bug: rejected, not guessed at.
 */
function addQuantiles(name: string, point: OtlpSummaryPoint, dimensions: Attributes, target: ResourcePoints): void {
  const seen = new Set<number>();
  for (const { quantile, value } of point.quantileValues) {
    if (!(quantile >= 0 && quantile <= 1)) {
      reject(target.rejected, `quantiles outside [0, 1] were rejected (${name})`);
    } else if (seen.has(quantile)) {
      reject(target.rejected, `repeated quantiles were rejected (${name})`);
    } else {
      seen.add(quantile);
      const suffix = QUANTILE_SUFFIXES.get(quantile);
      if (suffix !== undefined) addPoint(`${name}.${suffix}`, value, point.timeUnixNano, dimensions, target);
    }
  }
}

/** The proto says points without a time should be rejected: there is no instant to file them at. */
function hasTime(timeUnixNano: UnixNanos, target: ResourcePoints): boolean {
  if (timeUnixNano !== 0n) return true;
  reject(target.rejected, 'data points without time_unix_nano were rejected');
  return false;
}

function dimensionsOf(
  pointAttributes: readonly KeyValue[],
  temporality: OtlpTemporality | undefined,
  target: ResourcePoints,
): Attributes {
  const dimensions = { ...target.resourceDimensions };
  for (const { key, value } of pointAttributes) setOwn(dimensions, key, anyValueToString(value));
  if (temporality !== undefined) setOwn(dimensions, TEMPORALITY_DIMENSION, temporality.toLowerCase());
  return dimensions;
}

function addPoint(
  name: string,
  value: number,
  recordedAt: UnixNanos,
  dimensions: Attributes,
  target: ResourcePoints,
): void {
  // Float64 columns and JSON rows cannot carry NaN or infinities.
  if (!Number.isFinite(value)) {
    reject(target.rejected, `data points with a non-finite value were rejected (${name})`);
    return;
  }
  target.points.push({
    projectId: target.context.projectId,
    name,
    value,
    recordedAt,
    dimensions,
    serverName: target.serverName,
    dedupKey: metricDedupKey(name, recordedAt, value, target.serverName, dimensions),
    source: 'otlp',
  });
}
