/**
 * Telemetry records: what ingest produces and the telemetry store keeps, one interface per table.
 *
 * These are plain data, shared by the native report path and the OTLP path. Field names are the
 * camelCase of the table's columns (see src/store/telemetry/migrations); the converters in
 * src/store/telemetry/rows.ts are the only place that maps one to the other.
 *
 * Conventions:
 * - ids are lowercase UUID strings (8-4-4-4-12). OTLP trace ids (16 bytes) map to a UUID
 *   directly; 8-byte span ids are the low 8 bytes of a UUID whose high 8 bytes are zero (a span
 *   row may carry them as their hex digits: SpanId).
 * - times are bigint nanoseconds since the Unix epoch (UTC), so RFC 3339 nanosecond fractions
 *   survive; durations are bigint nanoseconds (int64 on the wire).
 * - attributes are flat string maps; structured values are JSON-encoded strings.
 */

export type Uuid = string;
/**
 * A span row's span or parent id: a Uuid, or an OpenTelemetry span id as its 16 hex digits, which
 * stands for the UUID with those low 8 bytes (as above). OTLP classification passes the decoder's
 * hex on, which the row encoder reads directly (no UUID text to format and parse back).
 */
export type SpanId = Uuid;
export type UnixNanos = bigint;
export type Nanos = bigint;
export type Attributes = Record<string, string>;

/** The all-zero UUID stands for "none" in key columns, where ClickHouse disallows NULL. */
export const NIL_UUID: Uuid = '00000000-0000-0000-0000-000000000000';

export type IngestSource = 'report' | 'otlp';

/** Fields shared by endpoint, task and AI-trace rows (the "entities" spans hang under). */
export interface EntityBase {
  projectId: Uuid;
  /** Root: the OpenTelemetry trace id (or the report trace id). Non-root: the entity's own span id. */
  id: Uuid;
  /** Equal to the OpenTelemetry trace id unless `<vendor>.distributed_trace_id` overrides it. */
  distributedTraceId: Uuid;
  /** Span id of the span that triggered a non-root entity; NIL_UUID for roots. */
  parentSpanId: Uuid;
  isRoot: boolean;
  recordedAt: UnixNanos;
  durationNs: Nanos;
  serverName: string;
  appVersion: string;
  attributes: Attributes;
  source: IngestSource;
}

export interface EndpointRecord extends EntityBase {
  /** `METHOD /route`, `UNMATCHED` or `middleware - patched`. */
  name: string;
  method: string;
  route: string;
  statusCode: number;
  bodySize: number;
  clientIp: string;
  /** SSE or WebSocket response: excluded from latency scoring. */
  streaming: boolean;
}

export interface TaskRecord extends EntityBase {
  name: string;
  /** 0 unless the task failed; kept for symmetry with endpoints. */
  statusCode: number;
}

/** What an LLM call's span says of it: stored on the AI trace row and answered by the read API. */
export interface AiCall {
  /** From `trace.name`, falling back to the span name. */
  name: string;
  model: string;
  provider: string;
  operation: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  inputCost: number;
  outputCost: number;
  totalCost: number;
  finishReason: string;
  toolCalls: number;
  conversationId: string;
  isError: boolean;
}

export interface AiTraceRecord extends EntityBase, AiCall {
  /** Object-store key of the full conversation JSON; empty when there was no content. */
  conversationKey: string;
}

export type SpanKind = 'SERVER' | 'CLIENT' | 'INTERNAL' | 'PRODUCER' | 'CONSUMER';

export interface SpanEvent {
  time: UnixNanos;
  name: string;
  attributes: Attributes;
}

export interface SpanRecord {
  projectId: Uuid;
  /** Id of the owning entity (endpoint, task or AI trace), not the raw OpenTelemetry trace id. */
  traceId: Uuid;
  spanId: SpanId;
  parentSpanId: SpanId;
  name: string;
  kind: SpanKind;
  startTime: UnixNanos;
  durationNs: Nanos;
  statusCode: number;
  attributes: Attributes;
  events: SpanEvent[];
}

export interface ExceptionRecord {
  projectId: Uuid;
  /** Grouping hash: SHA-256 truncated to 16 hex characters. */
  hash: string;
  /** Content key that makes a re-sent occurrence replace, not add to, the stored one. */
  dedupKey: string;
  recordedAt: UnixNanos;
  /** Symbolicated text when symbolication ran, otherwise the text as received. */
  stackTrace: string;
  /** The text as received, kept only when symbolication changed it. */
  rawStackTrace: string;
  isMessage: boolean;
  /** Owning entity; NIL_UUID for a standalone exception. */
  traceId: Uuid;
  isTask: boolean;
  sessionId: Uuid;
  sessionRecordingId: Uuid;
  distributedTraceId: Uuid;
  serverName: string;
  appVersion: string;
  attributes: Attributes;
  source: IngestSource;
}

export interface MetricPointRecord {
  projectId: Uuid;
  name: string;
  value: number;
  recordedAt: UnixNanos;
  /** Data-point and resource attributes, filterable. */
  dimensions: Attributes;
  serverName: string;
  dedupKey: string;
  source: IngestSource;
}

export interface LogRecord {
  projectId: Uuid;
  timestamp: UnixNanos;
  observedTimestamp: UnixNanos;
  severityNumber: number;
  severityText: string;
  /** A string body as is; a structured body JSON-encoded. */
  body: string;
  /** 32 lowercase hex, or empty outside a trace. */
  traceId: string;
  /** 16 lowercase hex, or empty outside a trace. */
  spanId: string;
  serviceName: string;
  attributes: Attributes;
  resourceAttributes: Attributes;
  dedupKey: string;
}

export interface SessionRecord {
  projectId: Uuid;
  id: Uuid;
  startedAt: UnixNanos;
  /** null while the session is open. */
  endedAt: UnixNanos | null;
  durationNs: Nanos | null;
  clientIp: string;
  attributes: Attributes;
  distributedTraceId: Uuid;
  /** Version for "latest write wins": the time the service received this upsert. */
  updatedAt: UnixNanos;
}

export interface SessionRecordingRecord {
  projectId: Uuid;
  sessionId: Uuid;
  exceptionId: Uuid;
  segmentIndex: number;
  startedAt: UnixNanos;
  endedAt: UnixNanos;
  eventCount: number;
  byteSize: number;
  /** Object-store key of the (gzip-compressed) events JSON. */
  objectKey: string;
  /** JSON-encoded arrays. */
  logs: string;
  actions: string;
  receivedAt: UnixNanos;
}

export interface ProfileRecord {
  projectId: Uuid;
  receivedAt: UnixNanos;
  serviceName: string;
  objectKey: string;
  byteSize: number;
  sampleCount: number;
  contentType: string;
}

export interface IngestUsageRecord {
  projectId: Uuid;
  organizationId: Uuid;
  /** First day of the calendar month, `YYYY-MM-01`. */
  month: string;
  bytes: number;
  requests: number;
  skippedRecords: number;
}

/** Everything one ingest request produces, grouped by destination table. */
export interface TelemetryBatch {
  endpoints: EndpointRecord[];
  tasks: TaskRecord[];
  aiTraces: AiTraceRecord[];
  spans: SpanRecord[];
  exceptions: ExceptionRecord[];
  metricPoints: MetricPointRecord[];
  logs: LogRecord[];
  sessions: SessionRecord[];
  sessionRecordings: SessionRecordingRecord[];
  profiles: ProfileRecord[];
}

export function emptyBatch(): TelemetryBatch {
  return {
    endpoints: [],
    tasks: [],
    aiTraces: [],
    spans: [],
    exceptions: [],
    metricPoints: [],
    logs: [],
    sessions: [],
    sessionRecordings: [],
    profiles: [],
  };
}
