/**
 * Converters from telemetry records (src/core/records.ts) to rows of the telemetry tables, as
 * JSONCompactEachRow lines with their column lists (columnsOf). The only place that knows both
 * the camelCase records and the column names.
 *
 * bigint nanoseconds are written as quoted integers: ClickHouse reads a quoted integer into
 * Int64 exactly, and a quoted 19-digit one into DateTime64(9) as ticks (earlier instants: see
 * `time`), so no precision is lost and plain JSON.stringify (no replacer, the fast path) does
 * the encoding.
 */
import type {
  AiTraceRecord,
  EndpointRecord,
  EntityBase,
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

/** How records of one table become rows: its columns, each with the value a record gives it. */
export interface RowFormat<R> {
  table: TelemetryTable;
  columns: readonly string[];
  /** One JSONCompactEachRow line (the values in `columns` order). */
  row(record: R): string;
}

/** `recordedAt` -> `recorded_at`: the column of a record field. */
type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}`
  : S;
/** The columns that take a field of R as it is: the field names in snake_case. */
type PlainColumn<R> = { [K in keyof R & string]: SnakeCase<K> }[keyof R & string];

const camelCase = (column: string): string => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const COLUMNS = new Map<TelemetryTable, readonly string[]>();

/**
 * A table's row format: `plain` columns take the record field of the same name (camelCase) as it
 * is, type-checked against the record; `converted` columns say how their value is made (times,
 * nanoseconds, nulls). The insert names the columns, so no order here or in the table can
 * misplace a value. The values go as a JSON array per row (JSONCompactEachRow): chDB parses it in
 * about 25% less time than objects with keys (JSONEachRow), the insert being most of ingest's cost.
 */
function rowFormat<R>(
  table: TelemetryTable,
  plain: ReadonlyArray<PlainColumn<R>>,
  converted: Record<string, (record: R) => unknown> = {},
): RowFormat<R> {
  const fields = plain.map((column) => camelCase(column) as keyof R);
  const getters = [...fields.map((field) => (record: R) => record[field]), ...Object.values(converted)];
  const columns = [...plain, ...Object.keys(converted)];
  COLUMNS.set(table, columns);
  return { table, columns, row: (record) => JSON.stringify(getters.map((get) => get(record))) };
}

/** The columns a table's rows fill, in their order; every table written from here has one. */
export function columnsOf(table: string): readonly string[] {
  const columns = COLUMNS.get(table as TelemetryTable);
  if (!columns) throw new Error(`no row format for telemetry table ${table}`);
  return columns;
}

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

/** The columns endpoints, tasks and AI traces share (EntityBase). */
const ENTITY_PLAIN = ['project_id', 'id', 'distributed_trace_id', 'parent_span_id', 'is_root', 'server_name', 'app_version', 'attributes', 'source'] as const;
const ENTITY_CONVERTED = {
  recorded_at: (r: EntityBase) => time(r.recordedAt),
  duration_ns: (r: EntityBase) => ns(r.durationNs),
};

const ENDPOINT_ROWS = rowFormat<EndpointRecord>(
  'endpoints',
  [...ENTITY_PLAIN, 'name', 'method', 'route', 'status_code', 'body_size', 'client_ip', 'streaming'],
  ENTITY_CONVERTED,
);
export const endpointRow = ENDPOINT_ROWS.row;

const TASK_ROWS = rowFormat<TaskRecord>('tasks', [...ENTITY_PLAIN, 'name', 'status_code'], ENTITY_CONVERTED);
export const taskRow = TASK_ROWS.row;

const AI_TRACE_ROWS = rowFormat<AiTraceRecord>(
  'ai_traces',
  [
    ...ENTITY_PLAIN,
    ...['name', 'model', 'provider', 'operation', 'finish_reason', 'tool_calls', 'conversation_id', 'conversation_key', 'is_error'] as const,
    ...['input_tokens', 'output_tokens', 'cached_tokens', 'reasoning_tokens', 'input_cost', 'output_cost', 'total_cost'] as const,
  ],
  ENTITY_CONVERTED,
);
export const aiTraceRow = AI_TRACE_ROWS.row;

const SPAN_ROWS = rowFormat<SpanRecord>('spans', ['project_id', 'trace_id', 'span_id', 'parent_span_id', 'name', 'kind', 'status_code', 'attributes'], {
  start_time: (r) => time(r.startTime),
  duration_ns: (r) => ns(r.durationNs),
  // A named tuple is a JSON object, in compact formats too (input_format_json_named_tuples_as_objects).
  events: (r) => r.events.map((e) => ({ time: time(e.time), name: e.name, attributes: e.attributes })),
});
export const spanRow = SPAN_ROWS.row;

const EXCEPTION_ROWS = rowFormat<ExceptionRecord>(
  'exceptions',
  [
    ...['project_id', 'hash', 'dedup_key', 'stack_trace', 'raw_stack_trace', 'is_message', 'trace_id', 'is_task'] as const,
    ...['session_id', 'session_recording_id', 'distributed_trace_id', 'server_name', 'app_version', 'attributes', 'source'] as const,
  ],
  { recorded_at: (r) => time(r.recordedAt) },
);
export const exceptionRow = EXCEPTION_ROWS.row;

const METRIC_POINT_ROWS = rowFormat<MetricPointRecord>('metric_points', ['project_id', 'name', 'value', 'dimensions', 'server_name', 'dedup_key', 'source'], {
  recorded_at: (r) => time(r.recordedAt),
});
export const metricPointRow = METRIC_POINT_ROWS.row;

const LOG_ROWS = rowFormat<LogRecord>(
  'logs',
  ['project_id', 'severity_number', 'severity_text', 'body', 'trace_id', 'span_id', 'service_name', 'attributes', 'resource_attributes', 'dedup_key'],
  { timestamp: (r) => time(r.timestamp), observed_timestamp: (r) => time(r.observedTimestamp) },
);
export const logRow = LOG_ROWS.row;

const SESSION_ROWS = rowFormat<SessionRecord>('sessions', ['project_id', 'id', 'client_ip', 'attributes', 'distributed_trace_id'], {
  started_at: (r) => time(r.startedAt),
  ended_at: (r) => (r.endedAt === null ? null : time(r.endedAt)),
  duration_ns: (r) => (r.durationNs === null ? null : ns(r.durationNs)),
  updated_at: (r) => time(r.updatedAt),
});
export const sessionRow = SESSION_ROWS.row;

const SESSION_RECORDING_ROWS = rowFormat<SessionRecordingRecord>(
  'session_recordings',
  ['project_id', 'session_id', 'exception_id', 'segment_index', 'event_count', 'byte_size', 'object_key', 'logs', 'actions'],
  { started_at: (r) => time(r.startedAt), ended_at: (r) => time(r.endedAt), received_at: (r) => time(r.receivedAt) },
);
export const sessionRecordingRow = SESSION_RECORDING_ROWS.row;

const PROFILE_ROWS = rowFormat<ProfileRecord>('profiles', ['project_id', 'service_name', 'object_key', 'byte_size', 'sample_count', 'content_type'], {
  received_at: (r) => time(r.receivedAt),
});
export const profileRow = PROFILE_ROWS.row;

const INGEST_USAGE_ROWS = rowFormat<IngestUsageRecord>('ingest_usage', ['project_id', 'organization_id', 'month', 'bytes', 'requests', 'skipped_records']);
export const ingestUsageRow = INGEST_USAGE_ROWS.row;

/**
 * A mark that rows landed in this hour (epoch seconds) of a rolled table: `marked_at` is left to
 * the column's default, the server's time when the mark is inserted.
 */
const ROLLUP_MARK_ROWS = rowFormat<{ tableName: 'endpoints'; projectId: string; hour: number }>('rollup_hours', ['table_name', 'project_id', 'hour']);
export function rollupMarkRow(tableName: 'endpoints', projectId: string, hour: number): string {
  return ROLLUP_MARK_ROWS.row({ tableName, projectId, hour });
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
