/**
 * OTLP/HTTP protobuf (`application/x-protobuf`) decoders for ExportTraceServiceRequest,
 * ExportMetricsServiceRequest and ExportLogsServiceRequest, straight into the normalized model.
 *
 * Why hand-written rather than generated code: this is the ingest hot path, and it was measured.
 * On the bench batch (512 SDK-made HTTP spans, bench/otlp.ts), per CPU second on this machine:
 * protobufjs static code generated from the official .proto files (as
 * @opentelemetry/otlp-transformer 0.214 shipped it) decoded ~230k spans into its own message
 * objects (Long timestamps, Uint8Array ids) and ~110k once converted to plain values, where this
 * decoder yields ~600k spans already in the model (hex ids, bigint nanoseconds, typed values). The
 * wire format is small and stable, OpenTelemetry JS itself dropped generated protobuf code for a
 * hand-written serializer, and the field numbers below are those of opentelemetry-proto v1
 * (common, resource, trace, metrics, logs, collector services), which only ever adds fields.
 *
 * Each `case` is a full tag, (field number << 3) | wire type. A known field arriving with another
 * wire type falls through to `skip`, as protobuf parsers treat it as an unknown field; so do
 * fields this service does not read.
 */
import {
  type AnyValue,
  type KeyValue,
  type OtlpHistogramPoint,
  type OtlpLogRecord,
  type OtlpLogsRequest,
  type OtlpMetric,
  type OtlpMetricData,
  type OtlpMetricsRequest,
  type OtlpNumberPoint,
  type OtlpResource,
  type OtlpResourceLogs,
  type OtlpResourceMetrics,
  type OtlpResourceSpans,
  type OtlpScope,
  type OtlpScopeLogs,
  type OtlpScopeMetrics,
  type OtlpScopeSpans,
  type OtlpSpan,
  type OtlpSpanEvent,
  type OtlpSpanKind,
  type OtlpStatusCode,
  type OtlpSummaryPoint,
  type OtlpTemporality,
  type OtlpTraceRequest,
  type OtlpValueAtQuantile,
  EMPTY_VALUE,
  MAX_SEVERITY_NUMBER,
  SPAN_KINDS,
  STATUS_CODES,
  TEMPORALITIES,
} from '../../core/classify/otlp-model.js';
import { MAX_VALUE_DEPTH } from './limits.js';
import { ByteRangeCache, WireReader } from './wire.js';

export function decodeTraceRequestProtobuf(body: Uint8Array): OtlpTraceRequest {
  return { resourceSpans: readRequest(body, readResourceSpans) };
}

export function decodeMetricsRequestProtobuf(body: Uint8Array): OtlpMetricsRequest {
  return { resourceMetrics: readRequest(body, readResourceMetrics) };
}

export function decodeLogsRequestProtobuf(body: Uint8Array): OtlpLogsRequest {
  return { resourceLogs: readRequest(body, readResourceLogs) };
}

/** Every Export<Signal>ServiceRequest: field 1 the repeated Resource<Signal>, anything else skipped. */
function readRequest<Item>(body: Uint8Array, readItem: (r: WireReader) => Item): Item[] {
  const r = new WireReader(body);
  const items: Item[] = [];
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1 */) items.push(readItem(r));
    else r.skip(tag);
  }
  return items;
}

// ---- common/v1 and resource/v1 -------------------------------------------------------------

export function readResource(r: WireReader): OtlpResource {
  const outer = r.enter('Resource');
  const attributes: KeyValue[] = [];
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1: attributes */) attributes.push(readKeyValue(r, 0));
    else r.skip(tag);
  }
  r.leave(outer);
  return { attributes };
}

function readScope(r: WireReader): OtlpScope {
  const outer = r.enter('InstrumentationScope');
  let name = '';
  let version = '';
  const attributes: KeyValue[] = [];
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case 10 /* 1: name */:
        name = r.string();
        break;
      case 18 /* 2: version */:
        version = r.string();
        break;
      case 26 /* 3: attributes */:
        attributes.push(readKeyValue(r, 0));
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return { name, version, attributes };
}

/**
 * Whole attributes with a scalar value, by their bytes: most recur span after span (a route, a
 * database name, a port), and a repeat then costs neither a decode nor its two objects. Shared
 * instances, which is why KeyValue and AnyValue are read-only.
 */
const scalarAttributes = new ByteRangeCache<KeyValue>(4096, 64);

/** `depth` counts the arrays and key-value lists this pair is nested in. */
function readKeyValue(r: WireReader, depth: number): KeyValue {
  const outer = r.enter('KeyValue');
  const start = r.pos;
  const end = r.limit;
  const cached = r.cached(scalarAttributes, start, end);
  if (cached !== undefined) {
    r.pos = end;
    r.leave(outer);
    return cached;
  }
  let key = '';
  let value = EMPTY_VALUE;
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1: key */) key = r.string();
    else if (tag === 18 /* 2: value */) value = readAnyValue(r, depth);
    else r.skip(tag);
  }
  r.leave(outer);
  const pair: KeyValue = { key, value };
  // Arrays, lists and bytes are mutable objects: never shared.
  if (value.type !== 'array' && value.type !== 'kvlist' && value.type !== 'bytes')
    r.cache(scalarAttributes, start, end, pair);
  return pair;
}

function readAnyValue(r: WireReader, depth: number): AnyValue {
  const outer = r.enter('AnyValue');
  let value = EMPTY_VALUE;
  // A oneof: when a sender repeats it, the last member on the wire wins.
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case 10 /* 1: string_value */:
        value = { type: 'string', value: r.string() };
        break;
      case 16 /* 2: bool_value */:
        value = { type: 'bool', value: r.bool() };
        break;
      case 24 /* 3: int_value */:
        value = { type: 'int', value: r.int64() };
        break;
      case 33 /* 4: double_value */:
        value = { type: 'double', value: r.double() };
        break;
      case 42 /* 5: array_value */:
        value = { type: 'array', value: readValueList(r, depth + 1) };
        break;
      case 50 /* 6: kvlist_value */:
        value = { type: 'kvlist', value: readKeyValueList(r, depth + 1) };
        break;
      case 58 /* 7: bytes_value */:
        value = { type: 'bytes', value: r.bytesCopy() };
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return value;
}

function readValueList(r: WireReader, depth: number): AnyValue[] {
  if (depth > MAX_VALUE_DEPTH) r.fail(`attribute values nested deeper than ${MAX_VALUE_DEPTH} levels`);
  const outer = r.enter('ArrayValue');
  const values: AnyValue[] = [];
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1: values */) values.push(readAnyValue(r, depth));
    else r.skip(tag);
  }
  r.leave(outer);
  return values;
}

function readKeyValueList(r: WireReader, depth: number): KeyValue[] {
  if (depth > MAX_VALUE_DEPTH) r.fail(`attribute values nested deeper than ${MAX_VALUE_DEPTH} levels`);
  const outer = r.enter('KeyValueList');
  const values: KeyValue[] = [];
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1: values */) values.push(readKeyValue(r, depth));
    else r.skip(tag);
  }
  r.leave(outer);
  return values;
}

/** An enum field: its number must name one of `names`. */
function readEnum<T>(r: WireReader, names: readonly T[], field: string): T {
  const number = r.int32();
  const name = names[number];
  if (name === undefined) r.fail(`${field} ${number} is not one of 0-${names.length - 1}`);
  return name;
}

// ---- trace/v1 ------------------------------------------------------------------------------

function readResourceSpans(r: WireReader): OtlpResourceSpans {
  const [resource, scopeSpans] = readEnvelope(r, 'ResourceSpans', readResource, emptyResource, readScopeSpans);
  return { resource, scopeSpans };
}

function readScopeSpans(r: WireReader): OtlpScopeSpans {
  const [scope, spans] = readEnvelope(r, 'ScopeSpans', readScope, emptyScope, readSpan);
  return { scope, spans };
}

function readSpan(r: WireReader): OtlpSpan {
  const outer = r.enter('Span');
  let traceId = '';
  let spanId = '';
  let parentSpanId = '';
  let flags = 0;
  let name = '';
  let kind: OtlpSpanKind = 'UNSPECIFIED';
  let startTimeUnixNano = 0n;
  let endTimeUnixNano = 0n;
  const attributes: KeyValue[] = [];
  const events: OtlpSpanEvent[] = [];
  let status: OtlpSpan['status'] = { code: 'UNSET', message: '' };
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case 10 /* 1: trace_id */:
        traceId = r.id('Span.trace_id', 16);
        break;
      case 18 /* 2: span_id */:
        spanId = r.id('Span.span_id', 8);
        break;
      case 34 /* 4: parent_span_id */:
        parentSpanId = r.id('Span.parent_span_id', 8);
        break;
      case 133 /* 16: flags (fixed32) */:
        flags = r.fixed32();
        break;
      case 42 /* 5: name */:
        name = r.string();
        break;
      case 48 /* 6: kind */:
        kind = readEnum(r, SPAN_KINDS, 'Span.kind');
        break;
      case 57 /* 7: start_time_unix_nano (fixed64) */:
        startTimeUnixNano = r.unixNanos();
        break;
      case 65 /* 8: end_time_unix_nano (fixed64) */:
        endTimeUnixNano = r.unixNanos();
        break;
      case 74 /* 9: attributes */:
        attributes.push(readKeyValue(r, 0));
        break;
      case 90 /* 11: events */:
        events.push(readSpanEvent(r));
        break;
      case 122 /* 15: status */:
        status = readStatus(r);
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return {
    traceId,
    spanId,
    parentSpanId,
    flags,
    name,
    kind,
    startTimeUnixNano,
    endTimeUnixNano,
    attributes,
    events,
    status,
  };
}

function readSpanEvent(r: WireReader): OtlpSpanEvent {
  const outer = r.enter('Span.Event');
  let timeUnixNano = 0n;
  let name = '';
  const attributes: KeyValue[] = [];
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case 9 /* 1: time_unix_nano (fixed64) */:
        timeUnixNano = r.unixNanos();
        break;
      case 18 /* 2: name */:
        name = r.string();
        break;
      case 26 /* 3: attributes */:
        attributes.push(readKeyValue(r, 0));
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return { timeUnixNano, name, attributes };
}

function readStatus(r: WireReader): OtlpSpan['status'] {
  const outer = r.enter('Status');
  let code: OtlpStatusCode = 'UNSET';
  let message = '';
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 18 /* 2: message */) message = r.string();
    else if (tag === 24 /* 3: code */) code = readEnum(r, STATUS_CODES, 'Status.code');
    else r.skip(tag);
  }
  r.leave(outer);
  return { code, message };
}

// ---- metrics/v1 ----------------------------------------------------------------------------

function readResourceMetrics(r: WireReader): OtlpResourceMetrics {
  const [resource, scopeMetrics] = readEnvelope(r, 'ResourceMetrics', readResource, emptyResource, readScopeMetrics);
  return { resource, scopeMetrics };
}

function readScopeMetrics(r: WireReader): OtlpScopeMetrics {
  const [scope, metrics] = readEnvelope(r, 'ScopeMetrics', readScope, emptyScope, readMetric);
  return { scope, metrics };
}

function readMetric(r: WireReader): OtlpMetric {
  const outer = r.enter('Metric');
  let name = '';
  let description = '';
  let unit = '';
  let data: OtlpMetricData = { type: 'none' };
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case 10 /* 1: name */:
        name = r.string();
        break;
      case 18 /* 2: description */:
        description = r.string();
        break;
      case 26 /* 3: unit */:
        unit = r.string();
        break;
      case 42 /* 5: gauge */:
        data = { type: 'gauge', points: readNumberPoints(r, 'Gauge').points };
        break;
      case 58 /* 7: sum */:
        data = readSum(r);
        break;
      case 74 /* 9: histogram */:
        data = { type: 'histogram', ...readHistogram(r, 'Histogram', HISTOGRAM_POINT) };
        break;
      case 82 /* 10: exponential_histogram */:
        data = {
          type: 'exponentialHistogram',
          ...readHistogram(r, 'ExponentialHistogram', EXPONENTIAL_HISTOGRAM_POINT),
        };
        break;
      case 90 /* 11: summary */:
        data = readSummary(r);
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return { name, description, unit, data };
}

interface NumberPointsWithTemporality {
  points: OtlpNumberPoint[];
  temporality: OtlpTemporality;
  isMonotonic: boolean;
}

/** Gauge and Sum share a layout: data_points = 1, and for Sum temporality = 2, is_monotonic = 3. */
function readNumberPoints(r: WireReader, message: string): NumberPointsWithTemporality {
  const outer = r.enter(message);
  const points: OtlpNumberPoint[] = [];
  let temporality: OtlpTemporality = 'UNSPECIFIED';
  let isMonotonic = false;
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case 10 /* 1: data_points */:
        points.push(readNumberPoint(r));
        break;
      case 16 /* 2: aggregation_temporality */:
        temporality = readEnum(r, TEMPORALITIES, `${message}.aggregation_temporality`);
        break;
      case 24 /* 3: is_monotonic */:
        isMonotonic = r.bool();
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return { points, temporality, isMonotonic };
}

function readSum(r: WireReader): OtlpMetricData {
  const { points, temporality, isMonotonic } = readNumberPoints(r, 'Sum');
  return { type: 'sum', points, temporality, isMonotonic };
}

function readNumberPoint(r: WireReader): OtlpNumberPoint {
  const outer = r.enter('NumberDataPoint');
  const attributes: KeyValue[] = [];
  let startTimeUnixNano = 0n;
  let timeUnixNano = 0n;
  let value: number | undefined;
  let flags = 0;
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case 58 /* 7: attributes */:
        attributes.push(readKeyValue(r, 0));
        break;
      case 17 /* 2: start_time_unix_nano (fixed64) */:
        startTimeUnixNano = r.unixNanos();
        break;
      case 25 /* 3: time_unix_nano (fixed64) */:
        timeUnixNano = r.unixNanos();
        break;
      case 33 /* 4: as_double */:
        value = r.double();
        break;
      case 49 /* 6: as_int (sfixed64) */:
        value = r.sfixed64AsNumber();
        break;
      case 64 /* 8: flags */:
        flags = r.uint32();
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return { attributes, startTimeUnixNano, timeUnixNano, value, flags };
}

/**
 * Where the three count-and-sum data points keep what is read of them. They agree on
 * start_time_unix_nano = 2, time_unix_nano = 3, count = 4 (fixed64) and sum = 5 (double);
 * attributes and flags sit at different numbers, and field 6 means something else in each.
 */
interface CountSumPointLayout {
  message: string;
  attributesTag: number;
  flagsTag: number;
  /** SummaryDataPoint only. */
  quantileValuesTag?: number;
}

const HISTOGRAM_POINT: CountSumPointLayout = {
  message: 'HistogramDataPoint',
  attributesTag: 74 /* 9 */,
  flagsTag: 80 /* 10 */,
};
const EXPONENTIAL_HISTOGRAM_POINT: CountSumPointLayout = {
  message: 'ExponentialHistogramDataPoint',
  attributesTag: 10 /* 1 */,
  flagsTag: 80 /* 10 */,
};
const SUMMARY_POINT: CountSumPointLayout = {
  message: 'SummaryDataPoint',
  attributesTag: 58 /* 7 */,
  flagsTag: 64 /* 8 */,
  quantileValuesTag: 50 /* 6 */,
};

/** Histogram and ExponentialHistogram share a layout: data_points = 1, aggregation_temporality = 2. */
function readHistogram(
  r: WireReader,
  message: string,
  pointLayout: CountSumPointLayout,
): { points: OtlpHistogramPoint[]; temporality: OtlpTemporality } {
  const outer = r.enter(message);
  const points: OtlpHistogramPoint[] = [];
  let temporality: OtlpTemporality = 'UNSPECIFIED';
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1: data_points */) points.push(readCountSumPoint(r, pointLayout));
    else if (tag === 16 /* 2: aggregation_temporality */)
      temporality = readEnum(r, TEMPORALITIES, `${message}.aggregation_temporality`);
    else r.skip(tag);
  }
  r.leave(outer);
  return { points, temporality };
}

function readSummary(r: WireReader): OtlpMetricData {
  const outer = r.enter('Summary');
  const points: OtlpSummaryPoint[] = [];
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1: data_points */) points.push(readSummaryPoint(r));
    else r.skip(tag);
  }
  r.leave(outer);
  return { type: 'summary', points };
}

function readSummaryPoint(r: WireReader): OtlpSummaryPoint {
  const quantileValues: OtlpValueAtQuantile[] = [];
  const point = readCountSumPoint(r, SUMMARY_POINT, quantileValues);
  return { ...point, sum: point.sum ?? 0, quantileValues };
}

/** `quantileValues` receives the point's quantile_values when the layout has them. */
function readCountSumPoint(
  r: WireReader,
  layout: CountSumPointLayout,
  quantileValues: OtlpValueAtQuantile[] = [],
): OtlpHistogramPoint {
  const outer = r.enter(layout.message);
  const attributes: KeyValue[] = [];
  let startTimeUnixNano = 0n;
  let timeUnixNano = 0n;
  let count = 0;
  let sum: number | undefined;
  let flags = 0;
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case layout.attributesTag:
        attributes.push(readKeyValue(r, 0));
        break;
      case layout.flagsTag:
        flags = r.uint32();
        break;
      case layout.quantileValuesTag:
        quantileValues.push(readValueAtQuantile(r));
        break;
      case 17 /* 2: start_time_unix_nano (fixed64) */:
        startTimeUnixNano = r.unixNanos();
        break;
      case 25 /* 3: time_unix_nano (fixed64) */:
        timeUnixNano = r.unixNanos();
        break;
      case 33 /* 4: count (fixed64) */:
        count = r.fixed64AsNumber();
        break;
      case 41 /* 5: sum */:
        sum = r.double();
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return { attributes, startTimeUnixNano, timeUnixNano, count, sum, flags };
}

function readValueAtQuantile(r: WireReader): OtlpValueAtQuantile {
  const outer = r.enter('SummaryDataPoint.ValueAtQuantile');
  let quantile = 0;
  let value = 0;
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 9 /* 1: quantile */) quantile = r.double();
    else if (tag === 17 /* 2: value */) value = r.double();
    else r.skip(tag);
  }
  r.leave(outer);
  return { quantile, value };
}

// ---- logs/v1 -------------------------------------------------------------------------------

function readResourceLogs(r: WireReader): OtlpResourceLogs {
  const [resource, scopeLogs] = readEnvelope(r, 'ResourceLogs', readResource, emptyResource, readScopeLogs);
  return { resource, scopeLogs };
}

function readScopeLogs(r: WireReader): OtlpScopeLogs {
  const [scope, logRecords] = readEnvelope(r, 'ScopeLogs', readScope, emptyScope, readLogRecord);
  return { scope, logRecords };
}

function readLogRecord(r: WireReader): OtlpLogRecord {
  const outer = r.enter('LogRecord');
  let timeUnixNano = 0n;
  let observedTimeUnixNano = 0n;
  let severityNumber = 0;
  let severityText = '';
  let body = EMPTY_VALUE;
  const attributes: KeyValue[] = [];
  let flags = 0;
  let traceId = '';
  let spanId = '';
  let eventName = '';
  while (r.pos < r.limit) {
    const tag = r.tag();
    switch (tag) {
      case 9 /* 1: time_unix_nano (fixed64) */:
        timeUnixNano = r.unixNanos();
        break;
      case 89 /* 11: observed_time_unix_nano (fixed64) */:
        observedTimeUnixNano = r.unixNanos();
        break;
      case 16 /* 2: severity_number */:
        severityNumber = r.int32();
        if (severityNumber < 0 || severityNumber > MAX_SEVERITY_NUMBER) {
          r.fail(`LogRecord.severity_number ${severityNumber} is not one of 0-${MAX_SEVERITY_NUMBER}`);
        }
        break;
      case 26 /* 3: severity_text */:
        severityText = r.string();
        break;
      case 42 /* 5: body */:
        body = readAnyValue(r, 0);
        break;
      case 50 /* 6: attributes */:
        attributes.push(readKeyValue(r, 0));
        break;
      case 69 /* 8: flags (fixed32) */:
        flags = r.fixed32();
        break;
      case 74 /* 9: trace_id */:
        traceId = r.id('LogRecord.trace_id', 16);
        break;
      case 82 /* 10: span_id */:
        spanId = r.id('LogRecord.span_id', 8);
        break;
      case 98 /* 12: event_name */:
        eventName = r.string();
        break;
      default:
        r.skip(tag);
    }
  }
  r.leave(outer);
  return {
    timeUnixNano,
    observedTimeUnixNano,
    severityNumber,
    severityText,
    body,
    attributes,
    flags,
    traceId,
    spanId,
    eventName,
  };
}

/**
 * The envelopes of every signal (Resource<X>, Scope<X>): field 1 a resource or scope, field 2
 * the repeated contents, anything else skipped.
 */
function readEnvelope<Head, Item>(
  r: WireReader,
  message: string,
  readHead: (r: WireReader) => Head,
  emptyHead: () => Head,
  readItem: (r: WireReader) => Item,
): [Head, Item[]] {
  const outer = r.enter(message);
  let head = emptyHead();
  const items: Item[] = [];
  while (r.pos < r.limit) {
    const tag = r.tag();
    if (tag === 10 /* 1 */) head = readHead(r);
    else if (tag === 18 /* 2 */) items.push(readItem(r));
    else r.skip(tag);
  }
  r.leave(outer);
  return [head, items];
}

function emptyResource(): OtlpResource {
  return { attributes: [] };
}

function emptyScope(): OtlpScope {
  return { name: '', version: '', attributes: [] };
}
