/**
 * The normalized in-memory form of OTLP export requests: what the protobuf and OTLP/JSON decoders
 * (src/ingest/otlp) produce and the classifier and converters read. Both wire formats land in this
 * one shape, so nothing downstream knows which one a request used.
 *
 * Normalizations done by the decoders:
 * - trace and span ids are lowercase hex (32 and 16 characters); an absent id is ''.
 * - times are bigint nanoseconds since the Unix epoch; 0n means "not set", and so does a time past
 *   2^63 - 1 ns (2262), which the stores' DateTime64(9) columns cannot hold (ingest/otlp/limits.ts).
 * - enums are names, not numbers; values outside the proto's enum are decode errors.
 * - only what Sightline reads is kept: span links, trace_state, schema URLs, dropped counts,
 *   histogram buckets (explicit and exponential) and exemplars are skipped.
 */

/** An attribute or log-body value with its OTLP type kept. */
export type AnyValue =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'bool'; readonly value: boolean }
  /** A number when it is a safe integer, a bigint beyond ±(2^53 - 1). */
  | { readonly type: 'int'; readonly value: number | bigint }
  | { readonly type: 'double'; readonly value: number }
  | { readonly type: 'bytes'; readonly value: Uint8Array }
  | { readonly type: 'array'; readonly value: AnyValue[] }
  | { readonly type: 'kvlist'; readonly value: KeyValue[] }
  /** An AnyValue with none of its fields set. */
  | { readonly type: 'empty' };

/** The value of an AnyValue none of whose fields is set (both decoders share the instance). */
export const EMPTY_VALUE: AnyValue = { type: 'empty' };

/** Read-only: the protobuf decoder shares the instances of attributes that recur. */
export interface KeyValue {
  readonly key: string;
  readonly value: AnyValue;
}

export interface OtlpResource {
  attributes: KeyValue[];
}

export interface OtlpScope {
  name: string;
  version: string;
  attributes: KeyValue[];
}

/** Span.SpanKind by name; UNSPECIFIED is what the proto calls SPAN_KIND_UNSPECIFIED (0). */
export type OtlpSpanKind = 'UNSPECIFIED' | 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
export const SPAN_KINDS: readonly OtlpSpanKind[] = [
  'UNSPECIFIED',
  'INTERNAL',
  'SERVER',
  'CLIENT',
  'PRODUCER',
  'CONSUMER',
];

export type OtlpStatusCode = 'UNSET' | 'OK' | 'ERROR';
export const STATUS_CODES: readonly OtlpStatusCode[] = ['UNSET', 'OK', 'ERROR'];

/** Span.flags bits 8 and 9 (SpanFlags in trace.proto): whether, and then that, the parent is remote. */
export const SPAN_FLAG_HAS_IS_REMOTE = 0x100;
export const SPAN_FLAG_IS_REMOTE = 0x200;

export interface OtlpSpanEvent {
  timeUnixNano: bigint;
  name: string;
  attributes: KeyValue[];
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  /** W3C trace flags in bits 0-7, SPAN_FLAG_HAS_IS_REMOTE / SPAN_FLAG_IS_REMOTE in bits 8-9. */
  flags: number;
  name: string;
  kind: OtlpSpanKind;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: KeyValue[];
  events: OtlpSpanEvent[];
  status: { code: OtlpStatusCode; message: string };
}

export interface OtlpScopeSpans {
  scope: OtlpScope;
  spans: OtlpSpan[];
}

export interface OtlpResourceSpans {
  resource: OtlpResource;
  scopeSpans: OtlpScopeSpans[];
}

/** ExportTraceServiceRequest. */
export interface OtlpTraceRequest {
  resourceSpans: OtlpResourceSpans[];
}

export type OtlpTemporality = 'UNSPECIFIED' | 'DELTA' | 'CUMULATIVE';
export const TEMPORALITIES: readonly OtlpTemporality[] = ['UNSPECIFIED', 'DELTA', 'CUMULATIVE'];

/** DataPointFlags.FLAG_NO_RECORDED_VALUE: the point marks a gap, its value means nothing. */
export const DATA_POINT_FLAG_NO_RECORDED_VALUE = 1;

export interface OtlpNumberPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  /** as_double, or as_int converted to a double (the store keeps Float64); undefined when neither is set. */
  value: number | undefined;
  flags: number;
}

/** A HistogramDataPoint or an ExponentialHistogramDataPoint: their count and sum, not their buckets. */
export interface OtlpHistogramPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  count: number;
  /** Optional in the proto: absent when the instrument saw negative values. */
  sum: number | undefined;
  flags: number;
}

/** SummaryDataPoint.ValueAtQuantile. */
export interface OtlpValueAtQuantile {
  /** 0 to 1 by the proto; senders may break that. */
  quantile: number;
  value: number;
}

/** A SummaryDataPoint; its sum is not optional in the proto (0 when not sent). */
export interface OtlpSummaryPoint extends OtlpHistogramPoint {
  sum: number;
  quantileValues: OtlpValueAtQuantile[];
}

export type OtlpMetricData =
  | { type: 'gauge'; points: OtlpNumberPoint[] }
  | { type: 'sum'; points: OtlpNumberPoint[]; temporality: OtlpTemporality; isMonotonic: boolean }
  | { type: 'histogram'; points: OtlpHistogramPoint[]; temporality: OtlpTemporality }
  | { type: 'exponentialHistogram'; points: OtlpHistogramPoint[]; temporality: OtlpTemporality }
  /** No temporality field: the proto defines a summary's count and sum as cumulative. */
  | { type: 'summary'; points: OtlpSummaryPoint[] }
  /** A metric with no data field set. */
  | { type: 'none' };

export interface OtlpMetric {
  name: string;
  description: string;
  unit: string;
  data: OtlpMetricData;
}

export interface OtlpScopeMetrics {
  scope: OtlpScope;
  metrics: OtlpMetric[];
}

export interface OtlpResourceMetrics {
  resource: OtlpResource;
  scopeMetrics: OtlpScopeMetrics[];
}

/** ExportMetricsServiceRequest. */
export interface OtlpMetricsRequest {
  resourceMetrics: OtlpResourceMetrics[];
}

export interface OtlpLogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  /** SeverityNumber, 0 (unspecified) to 24. */
  severityNumber: number;
  severityText: string;
  body: AnyValue;
  attributes: KeyValue[];
  flags: number;
  traceId: string;
  spanId: string;
  eventName: string;
}

export interface OtlpScopeLogs {
  scope: OtlpScope;
  logRecords: OtlpLogRecord[];
}

export interface OtlpResourceLogs {
  resource: OtlpResource;
  scopeLogs: OtlpScopeLogs[];
}

/** ExportLogsServiceRequest. */
export interface OtlpLogsRequest {
  resourceLogs: OtlpResourceLogs[];
}

export const MAX_SEVERITY_NUMBER = 24;
