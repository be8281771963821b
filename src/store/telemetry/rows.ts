/**
 * Row formats of the telemetry tables: for each table its columns with their ClickHouse types, in
 * the table's order, and an encoder generated from that list that writes records (src/core/
 * records.ts) straight into RowBinary. The only place that knows both the camelCase records and
 * the column names.
 *
 * The declared types are spelled as `system.columns` spells them; test/store/telemetry-engine
 * .contract.ts checks every format against the migrated tables on both engines, so a migration
 * that changes a column without this list fails a test instead of mis-encoding rows. The insert
 * names the columns, so a table's later (defaulted) columns may be left out.
 */
import type {
  AiTraceRecord,
  EndpointRecord,
  ExceptionRecord,
  LogRecord,
  MetricPointRecord,
  ProfileRecord,
  SessionRecord,
  SessionRecordingRecord,
  SpanRecord,
  TaskRecord,
  TelemetryBatch,
} from '../../core/records.js';
import { encoderOf, RowBinaryBuffer } from './rowbinary.js';

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

/** What an engine needs to insert a table's RowBinary rows: the table, its columns, their types. */
export interface RowLayout {
  table: string;
  columns: readonly string[];
  /** Their ClickHouse types, as `system.columns` spells them. */
  types: readonly string[];
  /** `name Type, ...`: the structure of the rows (chDB's file() reads them with it). */
  structure: string;
}

/** How records of one table become RowBinary rows. */
export interface RowFormat<R> extends RowLayout {
  table: TelemetryTable;
  /** Appends the records' rows to `out`; throws (writing a partial row) on a value its type refuses. */
  encode(records: readonly R[], out: RowBinaryBuffer): void;
}

/** `recordedAt` -> `recorded_at`: the column of a record field. */
type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}`
  : S;
/** The columns that take a field of R as it is: the field names in snake_case. */
type PlainColumn<R> = { [K in keyof R & string]: SnakeCase<K> }[keyof R & string];

const camelCase = (column: string): string => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * A table's row format from its columns and types: each column takes the record field of the same
 * name (camelCase) as it is, type-checked against the record (times are bigint nanoseconds, which
 * is what DateTime64(9) stores, so no column needs converting).
 */
export function rowFormat<R>(
  table: TelemetryTable,
  columnTypes: Partial<Record<PlainColumn<R>, string>>,
): RowFormat<R> {
  return layoutFormat<R>(table, columnTypes as Record<string, string>);
}

/** The same over any column names; for tables of tests, whose records are built to match. */
export function layoutFormat<R>(table: string, columnTypes: Record<string, string>): RowFormat<R> {
  const columns = Object.keys(columnTypes);
  const types = Object.values(columnTypes);
  const writers = types.map((type) => encoderOf(type));
  // One function per table with a plain property read per column (r["projectId"]), which V8
  // compiles to monomorphic loads; a loop over field names would be a keyed load per value.
  // The names are our own declared columns (identifiers), so the generated source is fixed.
  const body = columns.map((column, i) => `w[${i}](out, r[${JSON.stringify(camelCase(column))}]);`).join('\n');
  const encodeRecord = new Function('w', `return function encodeRecord(out, r) {\n${body}\n};`)(writers) as (
    out: RowBinaryBuffer,
    record: R,
  ) => void;
  return {
    table: table as TelemetryTable,
    columns,
    types,
    structure: columns.map((column, i) => `${column} ${types[i]}`).join(', '),
    encode(records, out) {
      for (const record of records) encodeRecord(out, record);
    },
  };
}

const UUID = 'UUID';
const TIME = "DateTime64(9, 'UTC')";
const ATTRIBUTES = 'Map(String, String)';
const LOW = 'LowCardinality(String)';

/** The columns endpoints, tasks and AI traces share (EntityBase), in the tables' order. */
const ENTITY_HEAD = {
  project_id: UUID,
  id: UUID,
  distributed_trace_id: UUID,
  parent_span_id: UUID,
  is_root: 'Bool',
  recorded_at: TIME,
  duration_ns: 'Int64',
  name: 'String',
} as const;
const ENTITY_TAIL = { server_name: LOW, app_version: LOW, attributes: ATTRIBUTES, source: LOW } as const;

export const ENDPOINT_ROWS = rowFormat<EndpointRecord>('endpoints', {
  ...ENTITY_HEAD,
  ...{
    method: LOW,
    route: 'String',
    status_code: 'UInt16',
    body_size: 'UInt64',
    client_ip: 'String',
    streaming: 'Bool',
  },
  ...ENTITY_TAIL,
});

export const TASK_ROWS = rowFormat<TaskRecord>('tasks', { ...ENTITY_HEAD, status_code: 'UInt16', ...ENTITY_TAIL });

export const AI_TRACE_ROWS = rowFormat<AiTraceRecord>('ai_traces', {
  ...ENTITY_HEAD,
  ...{
    model: LOW,
    provider: LOW,
    operation: LOW,
    input_tokens: 'UInt64',
    output_tokens: 'UInt64',
    cached_tokens: 'UInt64',
    reasoning_tokens: 'UInt64',
  },
  ...{ input_cost: 'Float64', output_cost: 'Float64', total_cost: 'Float64', finish_reason: LOW, tool_calls: 'UInt32' },
  ...{ conversation_id: 'String', conversation_key: 'String', is_error: 'Bool' },
  ...ENTITY_TAIL,
});

export const SPAN_ROWS = rowFormat<SpanRecord>('spans', {
  ...{
    project_id: UUID,
    trace_id: UUID,
    span_id: UUID,
    parent_span_id: UUID,
    name: 'String',
    kind: LOW,
    start_time: TIME,
    duration_ns: 'Int64',
  },
  ...{ status_code: 'UInt16', attributes: ATTRIBUTES },
  // SpanEvent's fields are the tuple's element names.
  events: `Array(Tuple(time ${TIME}, name String, attributes ${ATTRIBUTES}))`,
});

export const EXCEPTION_ROWS = rowFormat<ExceptionRecord>('exceptions', {
  ...{
    project_id: UUID,
    hash: 'FixedString(16)',
    dedup_key: 'String',
    recorded_at: TIME,
    stack_trace: 'String',
    raw_stack_trace: 'String',
  },
  ...{
    is_message: 'Bool',
    trace_id: UUID,
    is_task: 'Bool',
    session_id: UUID,
    session_recording_id: UUID,
    distributed_trace_id: UUID,
  },
  ...ENTITY_TAIL,
});

export const METRIC_POINT_ROWS = rowFormat<MetricPointRecord>('metric_points', {
  ...{
    project_id: UUID,
    name: LOW,
    recorded_at: TIME,
    value: 'Float64',
    dimensions: 'Map(LowCardinality(String), String)',
  },
  ...{ server_name: LOW, dedup_key: 'String', source: LOW },
});

export const LOG_ROWS = rowFormat<LogRecord>('logs', {
  ...{
    project_id: UUID,
    timestamp: TIME,
    observed_timestamp: TIME,
    severity_number: 'UInt8',
    severity_text: LOW,
    body: 'String',
  },
  ...{
    trace_id: 'String',
    span_id: 'String',
    service_name: LOW,
    attributes: ATTRIBUTES,
    resource_attributes: ATTRIBUTES,
    dedup_key: 'String',
  },
});

export const SESSION_ROWS = rowFormat<SessionRecord>('sessions', {
  ...{ project_id: UUID, id: UUID, started_at: TIME, ended_at: `Nullable(${TIME})`, duration_ns: 'Nullable(Int64)' },
  ...{ client_ip: 'String', attributes: ATTRIBUTES, distributed_trace_id: UUID, updated_at: TIME },
});

export const SESSION_RECORDING_ROWS = rowFormat<SessionRecordingRecord>('session_recordings', {
  ...{
    project_id: UUID,
    session_id: UUID,
    exception_id: UUID,
    segment_index: 'UInt32',
    started_at: TIME,
    ended_at: TIME,
  },
  ...{
    event_count: 'UInt32',
    byte_size: 'UInt64',
    object_key: 'String',
    logs: 'String',
    actions: 'String',
    received_at: TIME,
  },
});

export const PROFILE_ROWS = rowFormat<ProfileRecord>('profiles', {
  ...{
    project_id: UUID,
    received_at: TIME,
    service_name: LOW,
    object_key: 'String',
    byte_size: 'UInt64',
    sample_count: 'UInt64',
  },
  content_type: LOW,
});

/** A mark that rows landed in this hour (epoch seconds) of a rolled table. */
export interface RollupMark {
  tableName: 'endpoints';
  projectId: string;
  hour: number;
}

/** `rolled_at` and `marked_at` are left to their defaults (`marked_at`: the server's time of the insert). */
export const ROLLUP_MARK_ROWS = rowFormat<RollupMark>('rollup_hours', {
  table_name: LOW,
  project_id: UUID,
  hour: "DateTime('UTC')",
});

/** Every format, for the check against the migrated tables. */
export const ROW_FORMATS: readonly RowFormat<never>[] = [
  ENDPOINT_ROWS,
  TASK_ROWS,
  AI_TRACE_ROWS,
  SPAN_ROWS,
  EXCEPTION_ROWS,
  METRIC_POINT_ROWS,
  LOG_ROWS,
  SESSION_ROWS,
  SESSION_RECORDING_ROWS,
  PROFILE_ROWS,
  ROLLUP_MARK_ROWS,
];

/** Records of one table on their way to the writer: a format and records it encodes. */
export type RowBatch = readonly [RowFormat<never>, readonly unknown[]];

/** Pairs records with their table's format, type-checked. */
export function rowsOf<R>(format: RowFormat<R>, records: readonly R[]): RowBatch {
  return [format as RowFormat<never>, records];
}

/** Rows of one batch per table, in a fixed order; empty tables are left out. */
export function batchRows(batch: TelemetryBatch): RowBatch[] {
  const tables: RowBatch[] = [
    rowsOf(ENDPOINT_ROWS, batch.endpoints),
    rowsOf(TASK_ROWS, batch.tasks),
    rowsOf(AI_TRACE_ROWS, batch.aiTraces),
    rowsOf(SPAN_ROWS, batch.spans),
    rowsOf(EXCEPTION_ROWS, batch.exceptions),
    rowsOf(METRIC_POINT_ROWS, batch.metricPoints),
    rowsOf(LOG_ROWS, batch.logs),
    rowsOf(SESSION_ROWS, batch.sessions),
    rowsOf(SESSION_RECORDING_ROWS, batch.sessionRecordings),
    rowsOf(PROFILE_ROWS, batch.profiles),
  ];
  return tables.filter(([, rows]) => rows.length > 0);
}

/** The RowBinary rows of records, in a buffer of their own (tests, benches; the writer reuses one). */
export function encodeRows<R>(format: RowFormat<R>, records: readonly R[]): Buffer {
  const out = new RowBinaryBuffer();
  format.encode(records, out);
  return Buffer.from(out.bytes());
}
