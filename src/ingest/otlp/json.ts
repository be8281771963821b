/**
 * OTLP/JSON decoders for ExportTraceServiceRequest, ExportMetricsServiceRequest and
 * ExportLogsServiceRequest, into the same normalized model as the protobuf decoders.
 *
 * OTLP/JSON is the protobuf JSON mapping with OTLP's own rules, all accepted here:
 * - trace and span ids are hex strings (any case), not base64; '' means absent;
 * - enums are integers; the enum value names the protobuf JSON mapping allows are accepted too;
 * - 64-bit integers may be decimal strings or numbers (a number past 2^53 has already lost
 *   precision in JSON.parse, which is why exporters send strings);
 * - field names are lowerCamelCase, and the original proto names (snake_case) are accepted;
 * - unknown fields are ignored and `null` means "not set".
 * Anything else of the wrong type is an OtlpDecodeError naming the JSON path.
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
  type OtlpSummaryPoint,
  type OtlpTemporality,
  type OtlpTraceRequest,
  type OtlpValueAtQuantile,
  EMPTY_VALUE,
  SPAN_KINDS,
  STATUS_CODES,
  TEMPORALITIES,
} from '../../core/classify/otlp-model.js';
import { OtlpDecodeError } from './errors.js';
import { MAX_UNIX_NANOS, MAX_VALUE_DEPTH } from './limits.js';

export type JsonObject = { readonly [key: string]: unknown };

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const DECIMAL_INTEGER = /^-?\d+$/;
const HEX = /^[0-9a-fA-F]*$/;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** SeverityNumber value names without their SEVERITY_NUMBER_ prefix, indexed by number (0-24). */
const SEVERITY_NAMES = [
  'UNSPECIFIED',
  ...['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].flatMap((level) => [
    level,
    `${level}2`,
    `${level}3`,
    `${level}4`,
  ]),
];

export function decodeTraceRequestJson(body: Uint8Array): OtlpTraceRequest {
  const root = parseJsonBody(body);
  return { resourceSpans: list(root, 'resourceSpans', 'resource_spans', '', readResourceSpans) };
}

export function decodeMetricsRequestJson(body: Uint8Array): OtlpMetricsRequest {
  const root = parseJsonBody(body);
  return { resourceMetrics: list(root, 'resourceMetrics', 'resource_metrics', '', readResourceMetrics) };
}

export function decodeLogsRequestJson(body: Uint8Array): OtlpLogsRequest {
  const root = parseJsonBody(body);
  return { resourceLogs: list(root, 'resourceLogs', 'resource_logs', '', readResourceLogs) };
}

/** Parses a JSON request body whose top level must be an object. */
export function parseJsonBody(body: Uint8Array): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(body));
  } catch (error) {
    throw new OtlpDecodeError(`malformed JSON: ${(error as Error).message}`);
  }
  return object(parsed, '(body)') ?? fail('(body)', 'must be a JSON object');
}

// ---- field access and scalar checks --------------------------------------------------------

function fail(path: string, problem: string): never {
  throw new OtlpDecodeError(`invalid OTLP/JSON: ${path} ${problem}`);
}

/** The field under its lowerCamelCase name, else under its proto name. */
function field(source: JsonObject, camelName: string, protoName: string = camelName): unknown {
  const value = source[camelName];
  return value === undefined || value === null ? source[protoName] : value;
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** An object, or undefined when absent or null. */
export function object(value: unknown, path: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) fail(path, 'must be an object');
  return value as JsonObject;
}

/** The elements of the array field, each read by `read`; absent or null is an empty array. */
export function list<T>(
  source: JsonObject,
  camelName: string,
  protoName: string,
  path: string,
  read: (element: unknown, elementPath: string) => T,
): T[] {
  const value = field(source, camelName, protoName);
  const listPath = join(path, camelName);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(listPath, 'must be an array');
  const result: T[] = [];
  for (let index = 0; index < value.length; index++) result.push(read(value[index], `${listPath}[${index}]`));
  return result;
}

/**
 * A string, made well-formed: a `\uD800`-style escape can put a lone surrogate in a JSON string
 * (the UTF-8 of the body itself is checked strictly), and the stores cannot hold one (ClickHouse
 * refuses the insert of the whole batch). It becomes U+FFFD, as invalid UTF-8 does in protobuf.
 */
function string(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') fail(path, 'must be a string');
  return (value as unknown as UnicodeString).isWellFormed()
    ? value
    : (value as unknown as UnicodeString).toWellFormed();
}

/** ES2024 string methods (Node 20 has them; the project's TypeScript lib predates them). */
interface UnicodeString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

function bool(value: unknown, path: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') fail(path, 'must be true or false');
  return value;
}

/** A uint32 or fixed32 field: a JSON number (or decimal string) from 0 to 2^32 - 1. */
function uint32(value: unknown, path: string): number {
  if (value === undefined || value === null) return 0;
  const number = typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > 0xffff_ffff) {
    fail(path, 'must be an integer from 0 to 4294967295');
  }
  return number;
}

/** A 64-bit integer as a bigint, from a decimal string or a JSON number. */
function bigInteger(value: unknown, path: string, min: bigint, max: bigint): bigint {
  let result: bigint | undefined;
  if (typeof value === 'string' && DECIMAL_INTEGER.test(value)) result = BigInt(value);
  else if (typeof value === 'number' && Number.isInteger(value)) result = BigInt(value);
  if (result === undefined || result < min || result > max)
    fail(path, 'must be a 64-bit integer (a decimal string or a number)');
  return result;
}

/** A time: uint64 nanoseconds, read as not set (0n) past MAX_UNIX_NANOS like the protobuf decoder does. */
function unixNanos(value: unknown, path: string): bigint {
  if (value === undefined || value === null) return 0n;
  const nanos = bigInteger(value, path, 0n, UINT64_MAX);
  return nanos > MAX_UNIX_NANOS ? 0n : nanos;
}

/** An int64 value: a number when it is a safe integer, else a bigint (as in the model). */
function int64(value: unknown, path: string): number | bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  const result = bigInteger(value, path, INT64_MIN, INT64_MAX);
  const asNumber = Number(result);
  return Number.isSafeInteger(asNumber) ? asNumber : result;
}

/** A uint64 count as a number (exact to 2^53, which counts never reach). */
function countNumber(value: unknown, path: string): number {
  if (value === undefined || value === null) return 0;
  return Number(bigInteger(value, path, 0n, UINT64_MAX));
}

/** A double: a JSON number, or one of the strings the protobuf JSON mapping allows. */
function double(value: unknown, path: string): number {
  if (typeof value === 'number') return value;
  if (value === 'NaN') return Number.NaN;
  if (value === 'Infinity') return Number.POSITIVE_INFINITY;
  if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return fail(path, 'must be a number');
}

/** A double, or undefined when absent or null. */
function optionalDouble(value: unknown, path: string): number | undefined {
  return value === undefined || value === null ? undefined : double(value, path);
}

/**
 * An enum: its integer, or its proto value name (`prefix` + name, e.g. SPAN_KIND_SERVER). Returns
 * the index into `names`.
 */
function enumIndex(value: unknown, path: string, names: readonly string[], prefix: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < names.length) return value;
  if (typeof value === 'string' && value.startsWith(prefix)) {
    const index = names.indexOf(value.slice(prefix.length));
    if (index >= 0) return index;
  }
  return fail(path, `must be an integer from 0 to ${names.length - 1} (${prefix}*), got ${JSON.stringify(value)}`);
}

/** A trace or span id: hex of exactly `byteLength` bytes, lowercased; '' when absent. */
function hexId(value: unknown, path: string, byteLength: number): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string' || value.length !== byteLength * 2 || !HEX.test(value)) {
    fail(path, `must be ${byteLength * 2} hex characters`);
  }
  return value.toLowerCase();
}

function base64Bytes(value: unknown, path: string): Uint8Array {
  if (typeof value !== 'string' || !BASE64.test(value)) fail(path, 'must be a base64 string');
  return new Uint8Array(Buffer.from(value, 'base64'));
}

// ---- common/v1 and resource/v1 -------------------------------------------------------------

export function readResource(value: unknown, path: string): OtlpResource {
  const source = object(value, path);
  return { attributes: source === undefined ? [] : list(source, 'attributes', 'attributes', path, readTopKeyValue) };
}

function readScope(value: unknown, path: string): OtlpScope {
  const source = object(value, path);
  if (source === undefined) return { name: '', version: '', attributes: [] };
  return {
    name: string(source.name, join(path, 'name')),
    version: string(source.version, join(path, 'version')),
    attributes: list(source, 'attributes', 'attributes', path, readTopKeyValue),
  };
}

function readTopKeyValue(value: unknown, path: string): KeyValue {
  return readKeyValue(value, path, 0);
}

function readKeyValue(value: unknown, path: string, depth: number): KeyValue {
  const source = object(value, path) ?? fail(path, 'must be a key-value object');
  return {
    key: string(source.key, join(path, 'key')),
    value: readAnyValue(source.value, join(path, 'value'), depth),
  };
}

/** `depth` counts the arrays and key-value lists this value is nested in. */
function readAnyValue(value: unknown, path: string, depth: number): AnyValue {
  const source = object(value, path);
  if (source === undefined) return EMPTY_VALUE;
  let member: unknown;
  if ((member = field(source, 'stringValue', 'string_value')) != null) {
    return { type: 'string', value: string(member, join(path, 'stringValue')) };
  }
  if ((member = field(source, 'boolValue', 'bool_value')) != null) {
    return { type: 'bool', value: bool(member, join(path, 'boolValue')) };
  }
  if ((member = field(source, 'intValue', 'int_value')) != null) {
    return { type: 'int', value: int64(member, join(path, 'intValue')) };
  }
  if ((member = field(source, 'doubleValue', 'double_value')) != null) {
    return { type: 'double', value: double(member, join(path, 'doubleValue')) };
  }
  if ((member = field(source, 'arrayValue', 'array_value')) != null) {
    const arrayPath = join(path, 'arrayValue');
    const nested = nestedList(member, arrayPath, depth + 1);
    return {
      type: 'array',
      value: list(nested, 'values', 'values', arrayPath, (element, elementPath) =>
        readAnyValue(element, elementPath, depth + 1),
      ),
    };
  }
  if ((member = field(source, 'kvlistValue', 'kvlist_value')) != null) {
    const kvlistPath = join(path, 'kvlistValue');
    const nested = nestedList(member, kvlistPath, depth + 1);
    return {
      type: 'kvlist',
      value: list(nested, 'values', 'values', kvlistPath, (element, elementPath) =>
        readKeyValue(element, elementPath, depth + 1),
      ),
    };
  }
  if ((member = field(source, 'bytesValue', 'bytes_value')) != null) {
    return { type: 'bytes', value: base64Bytes(member, join(path, 'bytesValue')) };
  }
  return EMPTY_VALUE;
}

function nestedList(value: unknown, path: string, depth: number): JsonObject {
  if (depth > MAX_VALUE_DEPTH) fail(path, `nests attribute values deeper than ${MAX_VALUE_DEPTH} levels`);
  return object(value, path) ?? {};
}

// ---- trace/v1 ------------------------------------------------------------------------------

function readResourceSpans(value: unknown, path: string): OtlpResourceSpans {
  const source = object(value, path) ?? {};
  return {
    resource: readResource(source.resource, join(path, 'resource')),
    scopeSpans: list(source, 'scopeSpans', 'scope_spans', path, readScopeSpans),
  };
}

function readScopeSpans(value: unknown, path: string): OtlpScopeSpans {
  const source = object(value, path) ?? {};
  return {
    scope: readScope(source.scope, join(path, 'scope')),
    spans: list(source, 'spans', 'spans', path, readSpan),
  };
}

function readSpan(value: unknown, path: string): OtlpSpan {
  const source = object(value, path) ?? fail(path, 'must be a span object');
  const status = object(source.status, join(path, 'status')) ?? {};
  return {
    traceId: hexId(field(source, 'traceId', 'trace_id'), join(path, 'traceId'), 16),
    spanId: hexId(field(source, 'spanId', 'span_id'), join(path, 'spanId'), 8),
    parentSpanId: hexId(field(source, 'parentSpanId', 'parent_span_id'), join(path, 'parentSpanId'), 8),
    flags: uint32(source.flags, join(path, 'flags')),
    name: string(source.name, join(path, 'name')),
    kind: SPAN_KINDS[enumIndex(source.kind, join(path, 'kind'), SPAN_KINDS, 'SPAN_KIND_')]!,
    startTimeUnixNano: unixNanos(
      field(source, 'startTimeUnixNano', 'start_time_unix_nano'),
      join(path, 'startTimeUnixNano'),
    ),
    endTimeUnixNano: unixNanos(field(source, 'endTimeUnixNano', 'end_time_unix_nano'), join(path, 'endTimeUnixNano')),
    attributes: list(source, 'attributes', 'attributes', path, readTopKeyValue),
    events: list(source, 'events', 'events', path, readSpanEvent),
    status: {
      code: STATUS_CODES[enumIndex(status.code, join(path, 'status.code'), STATUS_CODES, 'STATUS_CODE_')]!,
      message: string(status.message, join(path, 'status.message')),
    },
  };
}

function readSpanEvent(value: unknown, path: string): OtlpSpanEvent {
  const source = object(value, path) ?? fail(path, 'must be an event object');
  return {
    timeUnixNano: unixNanos(field(source, 'timeUnixNano', 'time_unix_nano'), join(path, 'timeUnixNano')),
    name: string(source.name, join(path, 'name')),
    attributes: list(source, 'attributes', 'attributes', path, readTopKeyValue),
  };
}

// ---- metrics/v1 ----------------------------------------------------------------------------

function readResourceMetrics(value: unknown, path: string): OtlpResourceMetrics {
  const source = object(value, path) ?? {};
  return {
    resource: readResource(source.resource, join(path, 'resource')),
    scopeMetrics: list(source, 'scopeMetrics', 'scope_metrics', path, readScopeMetrics),
  };
}

function readScopeMetrics(value: unknown, path: string): OtlpScopeMetrics {
  const source = object(value, path) ?? {};
  return {
    scope: readScope(source.scope, join(path, 'scope')),
    metrics: list(source, 'metrics', 'metrics', path, readMetric),
  };
}

function readMetric(value: unknown, path: string): OtlpMetric {
  const source = object(value, path) ?? fail(path, 'must be a metric object');
  return {
    name: string(source.name, join(path, 'name')),
    description: string(source.description, join(path, 'description')),
    unit: string(source.unit, join(path, 'unit')),
    data: readMetricData(source, path),
  };
}

function readMetricData(source: JsonObject, path: string): OtlpMetricData {
  let data: JsonObject | undefined;
  if ((data = object(source.gauge, join(path, 'gauge'))) !== undefined) {
    return { type: 'gauge', points: list(data, 'dataPoints', 'data_points', join(path, 'gauge'), readNumberPoint) };
  }
  if ((data = object(source.sum, join(path, 'sum'))) !== undefined) {
    const sumPath = join(path, 'sum');
    return {
      type: 'sum',
      points: list(data, 'dataPoints', 'data_points', sumPath, readNumberPoint),
      temporality: readTemporality(data, sumPath),
      isMonotonic: bool(field(data, 'isMonotonic', 'is_monotonic'), join(sumPath, 'isMonotonic')),
    };
  }
  if ((data = object(source.histogram, join(path, 'histogram'))) !== undefined) {
    return { type: 'histogram', ...readHistogram(data, join(path, 'histogram')) };
  }
  const exponential = field(source, 'exponentialHistogram', 'exponential_histogram');
  if ((data = object(exponential, join(path, 'exponentialHistogram'))) !== undefined) {
    return { type: 'exponentialHistogram', ...readHistogram(data, join(path, 'exponentialHistogram')) };
  }
  if ((data = object(source.summary, join(path, 'summary'))) !== undefined) {
    return {
      type: 'summary',
      points: list(data, 'dataPoints', 'data_points', join(path, 'summary'), readSummaryPoint),
    };
  }
  return { type: 'none' };
}

function readTemporality(data: JsonObject, path: string): OtlpTemporality {
  const value = field(data, 'aggregationTemporality', 'aggregation_temporality');
  return TEMPORALITIES[
    enumIndex(value, join(path, 'aggregationTemporality'), TEMPORALITIES, 'AGGREGATION_TEMPORALITY_')
  ]!;
}

/** Histogram and ExponentialHistogram: their points are read alike (buckets are skipped). */
function readHistogram(data: JsonObject, path: string): { points: OtlpHistogramPoint[]; temporality: OtlpTemporality } {
  return {
    points: list(data, 'dataPoints', 'data_points', path, readHistogramPoint),
    temporality: readTemporality(data, path),
  };
}

function readNumberPoint(value: unknown, path: string): OtlpNumberPoint {
  const source = object(value, path) ?? fail(path, 'must be a data point object');
  const asDouble = field(source, 'asDouble', 'as_double');
  const asInt = field(source, 'asInt', 'as_int');
  let pointValue: number | undefined;
  if (asDouble !== undefined && asDouble !== null) pointValue = double(asDouble, join(path, 'asDouble'));
  else if (asInt !== undefined && asInt !== null) pointValue = Number(int64(asInt, join(path, 'asInt')));
  return {
    attributes: list(source, 'attributes', 'attributes', path, readTopKeyValue),
    startTimeUnixNano: unixNanos(
      field(source, 'startTimeUnixNano', 'start_time_unix_nano'),
      join(path, 'startTimeUnixNano'),
    ),
    timeUnixNano: unixNanos(field(source, 'timeUnixNano', 'time_unix_nano'), join(path, 'timeUnixNano')),
    value: pointValue,
    flags: uint32(source.flags, join(path, 'flags')),
  };
}

function readHistogramPoint(value: unknown, path: string): OtlpHistogramPoint {
  const source = object(value, path) ?? fail(path, 'must be a data point object');
  return {
    attributes: list(source, 'attributes', 'attributes', path, readTopKeyValue),
    startTimeUnixNano: unixNanos(
      field(source, 'startTimeUnixNano', 'start_time_unix_nano'),
      join(path, 'startTimeUnixNano'),
    ),
    timeUnixNano: unixNanos(field(source, 'timeUnixNano', 'time_unix_nano'), join(path, 'timeUnixNano')),
    count: countNumber(source.count, join(path, 'count')),
    sum: optionalDouble(source.sum, join(path, 'sum')),
    flags: uint32(source.flags, join(path, 'flags')),
  };
}

function readSummaryPoint(value: unknown, path: string): OtlpSummaryPoint {
  const source = object(value, path) ?? fail(path, 'must be a data point object');
  const point = readHistogramPoint(source, path);
  return {
    ...point,
    sum: point.sum ?? 0,
    quantileValues: list(source, 'quantileValues', 'quantile_values', path, readValueAtQuantile),
  };
}

function readValueAtQuantile(value: unknown, path: string): OtlpValueAtQuantile {
  const source = object(value, path) ?? fail(path, 'must be a quantile object');
  return {
    quantile: optionalDouble(source.quantile, join(path, 'quantile')) ?? 0,
    value: optionalDouble(source.value, join(path, 'value')) ?? 0,
  };
}

// ---- logs/v1 -------------------------------------------------------------------------------

function readResourceLogs(value: unknown, path: string): OtlpResourceLogs {
  const source = object(value, path) ?? {};
  return {
    resource: readResource(source.resource, join(path, 'resource')),
    scopeLogs: list(source, 'scopeLogs', 'scope_logs', path, readScopeLogs),
  };
}

function readScopeLogs(value: unknown, path: string): OtlpScopeLogs {
  const source = object(value, path) ?? {};
  return {
    scope: readScope(source.scope, join(path, 'scope')),
    logRecords: list(source, 'logRecords', 'log_records', path, readLogRecord),
  };
}

function readLogRecord(value: unknown, path: string): OtlpLogRecord {
  const source = object(value, path) ?? fail(path, 'must be a log record object');
  return {
    timeUnixNano: unixNanos(field(source, 'timeUnixNano', 'time_unix_nano'), join(path, 'timeUnixNano')),
    observedTimeUnixNano: unixNanos(
      field(source, 'observedTimeUnixNano', 'observed_time_unix_nano'),
      join(path, 'observedTimeUnixNano'),
    ),
    severityNumber: enumIndex(
      field(source, 'severityNumber', 'severity_number'),
      join(path, 'severityNumber'),
      SEVERITY_NAMES,
      'SEVERITY_NUMBER_',
    ),
    severityText: string(field(source, 'severityText', 'severity_text'), join(path, 'severityText')),
    body: readAnyValue(source.body, join(path, 'body'), 0),
    attributes: list(source, 'attributes', 'attributes', path, readTopKeyValue),
    flags: uint32(source.flags, join(path, 'flags')),
    traceId: hexId(field(source, 'traceId', 'trace_id'), join(path, 'traceId'), 16),
    spanId: hexId(field(source, 'spanId', 'span_id'), join(path, 'spanId'), 8),
    eventName: string(field(source, 'eventName', 'event_name'), join(path, 'eventName')),
  };
}
