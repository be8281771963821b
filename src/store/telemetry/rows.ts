/**
 * Converters from telemetry records (src/core/records.ts) to rows of the telemetry tables, as
 * JSONEachRow lines. The only place that knows both the camelCase records and the column names.
 *
 * bigint nanoseconds are written as quoted integers: ClickHouse reads a quoted integer into
 * Int64 exactly, and a quoted 19-digit one into DateTime64(9) as ticks (earlier instants: see
 * `time`), so no precision is lost and plain JSON.stringify (no replacer, the fast path) does
 * the encoding.
 */
import type {
  AiTraceRecord,
  EndpointRecord,
  ExceptionRecord,
  IngestUsageRecord,
  LogRecord,
  MetricPointRecord,
  ProfileRecord,
  SessionRecord,
  SessionRecordingRecord,
  SpanRecord,
  TaskRecord,
  TelemetryBatch,
} from '../../core/records.js';

export type TelemetryTable =
  | 'endpoints'
  | 'tasks'
  | 'ai_traces'
  | 'spans'
  | 'exceptions'
  | 'metric_points'
  | 'logs'
  | 'sessions'
  | 'session_recordings'
  | 'profiles'
  | 'ingest_usage'
  | 'rollup_hours';

const ns = (value: bigint): string => value.toString();

/** 1e18 ns: 2001-09-09T01:46:40Z, the first instant whose nanoseconds have 19 digits. */
const NINETEEN_DIGITS = 1_000_000_000_000_000_000n;
const NANOS_PER_SECOND = 1_000_000_000n;

/**
 * An instant for a DateTime64(9) column. ClickHouse reads a quoted integer of 19 digits as
 * ticks, but a shorter one (an instant before 2001-09-09) as date text: it refuses it or reads
 * another date, and a refused value fails the insert of the whole batch. Those instants are
 * written as `YYYY-MM-DD hh:mm:ss.fffffffff` (UTC), which it reads exactly.
 */
function time(value: bigint): string {
  if (value >= NINETEEN_DIGITS) return value.toString();
  let seconds = value / NANOS_PER_SECOND;
  let nanos = value % NANOS_PER_SECOND;
  if (nanos < 0n) {
    seconds -= 1n;
    nanos += NANOS_PER_SECOND;
  }
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${nanos.toString().padStart(9, '0')}`;
}

export function endpointRow(r: EndpointRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    id: r.id,
    distributed_trace_id: r.distributedTraceId,
    parent_span_id: r.parentSpanId,
    is_root: r.isRoot,
    recorded_at: time(r.recordedAt),
    duration_ns: ns(r.durationNs),
    name: r.name,
    method: r.method,
    route: r.route,
    status_code: r.statusCode,
    body_size: r.bodySize,
    client_ip: r.clientIp,
    streaming: r.streaming,
    server_name: r.serverName,
    app_version: r.appVersion,
    attributes: r.attributes,
    source: r.source,
  });
}

export function taskRow(r: TaskRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    id: r.id,
    distributed_trace_id: r.distributedTraceId,
    parent_span_id: r.parentSpanId,
    is_root: r.isRoot,
    recorded_at: time(r.recordedAt),
    duration_ns: ns(r.durationNs),
    name: r.name,
    status_code: r.statusCode,
    server_name: r.serverName,
    app_version: r.appVersion,
    attributes: r.attributes,
    source: r.source,
  });
}

export function aiTraceRow(r: AiTraceRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    id: r.id,
    distributed_trace_id: r.distributedTraceId,
    parent_span_id: r.parentSpanId,
    is_root: r.isRoot,
    recorded_at: time(r.recordedAt),
    duration_ns: ns(r.durationNs),
    name: r.name,
    model: r.model,
    provider: r.provider,
    operation: r.operation,
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    cached_tokens: r.cachedTokens,
    reasoning_tokens: r.reasoningTokens,
    input_cost: r.inputCost,
    output_cost: r.outputCost,
    total_cost: r.totalCost,
    finish_reason: r.finishReason,
    tool_calls: r.toolCalls,
    conversation_id: r.conversationId,
    conversation_key: r.conversationKey,
    is_error: r.isError,
    server_name: r.serverName,
    app_version: r.appVersion,
    attributes: r.attributes,
    source: r.source,
  });
}

export function spanRow(r: SpanRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    trace_id: r.traceId,
    span_id: r.spanId,
    parent_span_id: r.parentSpanId,
    name: r.name,
    kind: r.kind,
    start_time: time(r.startTime),
    duration_ns: ns(r.durationNs),
    status_code: r.statusCode,
    attributes: r.attributes,
    // A named tuple is a JSON object in JSONEachRow (input_format_json_named_tuples_as_objects).
    events: r.events.map((e) => ({ time: time(e.time), name: e.name, attributes: e.attributes })),
  });
}

export function exceptionRow(r: ExceptionRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    hash: r.hash,
    dedup_key: r.dedupKey,
    recorded_at: time(r.recordedAt),
    stack_trace: r.stackTrace,
    raw_stack_trace: r.rawStackTrace,
    is_message: r.isMessage,
    trace_id: r.traceId,
    is_task: r.isTask,
    session_id: r.sessionId,
    session_recording_id: r.sessionRecordingId,
    distributed_trace_id: r.distributedTraceId,
    server_name: r.serverName,
    app_version: r.appVersion,
    attributes: r.attributes,
    source: r.source,
  });
}

export function metricPointRow(r: MetricPointRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    name: r.name,
    recorded_at: time(r.recordedAt),
    value: r.value,
    dimensions: r.dimensions,
    server_name: r.serverName,
    dedup_key: r.dedupKey,
    source: r.source,
  });
}

export function logRow(r: LogRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    timestamp: time(r.timestamp),
    observed_timestamp: time(r.observedTimestamp),
    severity_number: r.severityNumber,
    severity_text: r.severityText,
    body: r.body,
    trace_id: r.traceId,
    span_id: r.spanId,
    service_name: r.serviceName,
    attributes: r.attributes,
    resource_attributes: r.resourceAttributes,
    dedup_key: r.dedupKey,
  });
}

export function sessionRow(r: SessionRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    id: r.id,
    started_at: time(r.startedAt),
    ended_at: r.endedAt === null ? null : time(r.endedAt),
    duration_ns: r.durationNs === null ? null : ns(r.durationNs),
    client_ip: r.clientIp,
    attributes: r.attributes,
    distributed_trace_id: r.distributedTraceId,
    updated_at: time(r.updatedAt),
  });
}

export function sessionRecordingRow(r: SessionRecordingRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    session_id: r.sessionId,
    exception_id: r.exceptionId,
    segment_index: r.segmentIndex,
    started_at: time(r.startedAt),
    ended_at: time(r.endedAt),
    event_count: r.eventCount,
    byte_size: r.byteSize,
    object_key: r.objectKey,
    logs: r.logs,
    actions: r.actions,
    received_at: time(r.receivedAt),
  });
}

export function profileRow(r: ProfileRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    received_at: time(r.receivedAt),
    service_name: r.serviceName,
    object_key: r.objectKey,
    byte_size: r.byteSize,
    sample_count: r.sampleCount,
    content_type: r.contentType,
  });
}

export function ingestUsageRow(r: IngestUsageRecord): string {
  return JSON.stringify({
    project_id: r.projectId,
    organization_id: r.organizationId,
    month: r.month,
    bytes: r.bytes,
    requests: r.requests,
    skipped_records: r.skippedRecords,
  });
}

/**
 * A mark that rows landed in this hour (epoch seconds) of a rolled table: `marked_at` is left to
 * the column's default, the server's time when the mark is inserted.
 */
export function rollupMarkRow(table: 'endpoints', projectId: string, hour: number): string {
  return JSON.stringify({ table_name: table, project_id: projectId, hour });
}

/** Rows of one batch per table, in a fixed order; empty tables are left out. */
export function batchRows(batch: TelemetryBatch): Array<[TelemetryTable, string[]]> {
  const tables: Array<[TelemetryTable, string[]]> = [
    ['endpoints', batch.endpoints.map(endpointRow)],
    ['tasks', batch.tasks.map(taskRow)],
    ['ai_traces', batch.aiTraces.map(aiTraceRow)],
    ['spans', batch.spans.map(spanRow)],
    ['exceptions', batch.exceptions.map(exceptionRow)],
    ['metric_points', batch.metricPoints.map(metricPointRow)],
    ['logs', batch.logs.map(logRow)],
    ['sessions', batch.sessions.map(sessionRow)],
    ['session_recordings', batch.sessionRecordings.map(sessionRecordingRow)],
    ['profiles', batch.profiles.map(profileRow)],
  ];
  return tables.filter(([, rows]) => rows.length > 0);
}
