/**
 * The native report payload (`POST /api/report`) to telemetry records.
 *
 * A body whose top level is not a report payload is refused whole. Inside a valid payload each
 * record (trace, span, exception, metric, session, recording) stands alone: one that breaks the
 * schema is skipped and listed with its JSON path, the rest is kept.
 *
 * This is the ingest hot path, so validation is hand-written, records are built as plain object
 * literals of one shape each, and error strings and JSON paths are only built for skipped records.
 */
import { Buffer } from 'node:buffer';
import { exceptionHash } from '../../core/grouping.js';
import {
  NIL_UUID,
  emptyBatch,
  type Attributes,
  type TaskRecord,
  type TelemetryBatch,
  type UnixNanos,
  type Uuid,
} from '../../core/records.js';
import { exceptionDedupKey, metricDedupKey, recordingObjectKey } from './keys.js';
import {
  copyAttributes,
  isIntegerInRange,
  isJsonObject,
  toAttributes,
  toDurationNs,
  toJsonText,
  toOptionalBoolean,
  toOptionalUnixNanos,
  toOptionalUuid,
  toUnixNanos,
  toUuid,
  type JsonObject,
} from './values.js';

export interface ReportContext {
  projectId: Uuid;
  /** The request's remote address, stamped on sessions. */
  remoteIp: string;
  /** When the request arrived, nanoseconds since the Unix epoch. */
  receivedAt: UnixNanos;
}

export interface SkippedRecord {
  /** JSON path of the record, e.g. `collectionFrames[0].traces[2].spans[1]`. */
  path: string;
  reason: string;
}

/** Events of one session recording, to be gzip-compressed and stored under `key`. */
export interface RecordingObject {
  key: string;
  events: unknown[];
  /** `JSON.stringify(events)`, made anyway to measure byteSize; compress this, not `events` again. */
  eventsJson: string;
}

export type ReportParseResult =
  | { ok: false; error: string }
  | {
      ok: true;
      batch: TelemetryBatch;
      recordingObjects: RecordingObject[];
      /** The first MAX_SKIPPED_DETAILS skipped records. */
      skipped: SkippedRecord[];
      /** All skipped records. */
      skippedCount: number;
    };

/** Bounds the memory a payload of nothing but broken records can make us hold for its report. */
export const MAX_SKIPPED_DETAILS = 100;

const MAX_STATUS_CODE = 999;
const MAX_SEGMENT_INDEX = 0xffff_ffff;
const MAX_BODY_SIZE = Number.MAX_SAFE_INTEGER;

/** The record arrays of a collection frame; each may be empty, null or omitted. */
const FRAME_ARRAYS = ['stackTraces', 'metrics', 'traces', 'sessions', 'sessionRecordings'] as const;
const NO_RECORDS: readonly unknown[] = [];
const SPACE = 0x20;
const SLASH = 0x2f;

/** Attribute keys by which a client overrides an entity's distributed trace id (DESIGN §4). */
const DISTRIBUTED_TRACE_ID_ATTRIBUTES = ['sightline.distributed_trace_id', 'traceway.distributed_trace_id'];
const CLIENT_IP_ATTRIBUTE = 'client.ip';

const A_UUID = 'a UUID';
const A_STRING = 'a string';
const A_BOOLEAN = 'a boolean';
const AN_OBJECT = 'an object';
const AN_ARRAY = 'an array';
const A_TIMESTAMP = 'an RFC 3339 timestamp from 1900 to 2262';
const A_DURATION = 'a non-negative integer of nanoseconds';
const A_SIZE = 'a non-negative integer';
const A_STATUS_CODE = 'an integer from 0 to 999';
const A_SEGMENT_INDEX = 'an integer from 0 to 4294967295';
const A_FINITE_NUMBER = 'a finite number';
const NOT_AN_OBJECT = 'record must be an object';
const NO_RECORDING_OWNER = 'recording has neither exceptionId nor sessionId';
const ENDED_BEFORE_STARTED = 'endedAt must not be before startedAt';
const NESTS_TOO_DEEPLY = 'nests too deeply to be stored';

/** Why toAttributes refused an attribute map: not an object, or a value nested too deeply. */
function attributesError(value: unknown): string {
  return isJsonObject(value) ? `attributes ${NESTS_TOO_DEEPLY}` : mustBe('attributes', AN_OBJECT);
}

function mustBe(subject: string, expectation: string): string {
  return `${subject} must be ${expectation}`;
}

/**
 * Validates and converts a parsed report body. The returned records may share objects with `json`
 * (attribute maps, recording events), so neither should be mutated afterwards.
 */
export function parseReportPayload(json: unknown, ctx: ReportContext): ReportParseResult {
  if (!isJsonObject(json)) return { ok: false, error: mustBe('payload', 'a JSON object') };
  const { collectionFrames, appVersion, serverName } = json;
  if (!Array.isArray(collectionFrames)) return { ok: false, error: mustBe('collectionFrames', AN_ARRAY) };
  if (typeof appVersion !== 'string') return { ok: false, error: mustBe('appVersion', A_STRING) };
  if (typeof serverName !== 'string') return { ok: false, error: mustBe('serverName', A_STRING) };

  // All frame shapes before any record: a refused payload costs no record work.
  for (let f = 0; f < collectionFrames.length; f++) {
    const error = frameShapeError(collectionFrames[f], f);
    if (error !== undefined) return { ok: false, error };
  }

  const parser = new ReportParser(ctx, serverName, appVersion);
  for (let f = 0; f < collectionFrames.length; f++) parser.addFrame(collectionFrames[f] as JsonObject, f);
  return {
    ok: true,
    batch: parser.batch,
    recordingObjects: parser.recordingObjects,
    skipped: parser.skipped,
    skippedCount: parser.skippedCount,
  };
}

function frameShapeError(frame: unknown, f: number): string | undefined {
  if (!isJsonObject(frame)) return mustBe(`collectionFrames[${f}]`, AN_OBJECT);
  for (const field of FRAME_ARRAYS) {
    const records = frame[field];
    if (records !== undefined && records !== null && !Array.isArray(records)) {
      return mustBe(`collectionFrames[${f}].${field}`, AN_ARRAY);
    }
  }
  return undefined;
}

/** A frame array whose shape frameShapeError has accepted. */
function recordsOf(records: unknown): readonly unknown[] {
  return Array.isArray(records) ? records : NO_RECORDS;
}

/**
 * Length of the method in an endpoint name of the form `METHOD /route` (upper-case letters, one
 * space, a slash), or 0 for names of another form such as `UNMATCHED`.
 */
function httpMethodLength(name: string): number {
  let length = 0;
  while (isUpperCaseLetter(name.charCodeAt(length))) length++;
  return length > 0 && name.charCodeAt(length) === SPACE && name.charCodeAt(length + 1) === SLASH ? length : 0;
}

function isUpperCaseLetter(code: number): boolean {
  return code >= 65 && code <= 90;
}

function distributedTraceIdOverride(attributes: Attributes): Uuid | undefined {
  for (const key of DISTRIBUTED_TRACE_ID_ATTRIBUTES) {
    const id = toUuid(attributes[key]);
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * Accumulates the records of one payload. Each `add*` method validates one record and either
 * appends what it yields or answers the reason it was skipped.
 */
class ReportParser {
  readonly batch: TelemetryBatch = emptyBatch();
  readonly recordingObjects: RecordingObject[] = [];
  readonly skipped: SkippedRecord[] = [];
  skippedCount = 0;
  /** Trace id to distributed trace id, for the traces where they differ, for their exceptions. */
  private readonly distributedTraceIds = new Map<Uuid, Uuid>();

  constructor(
    private readonly ctx: ReportContext,
    private readonly serverName: string,
    private readonly appVersion: string,
  ) {}

  addFrame(frame: JsonObject, f: number): void {
    // Traces before exceptions, so an exception finds the distributed trace id of its trace.
    const traces = recordsOf(frame.traces);
    for (let i = 0; i < traces.length; i++) this.report(this.addTrace(traces[i], f, i), f, 'traces', i);
    const exceptions = recordsOf(frame.stackTraces);
    for (let i = 0; i < exceptions.length; i++) this.report(this.addException(exceptions[i]), f, 'stackTraces', i);
    const metrics = recordsOf(frame.metrics);
    for (let i = 0; i < metrics.length; i++) this.report(this.addMetric(metrics[i]), f, 'metrics', i);
    const sessions = recordsOf(frame.sessions);
    for (let i = 0; i < sessions.length; i++) this.report(this.addSession(sessions[i]), f, 'sessions', i);
    const recordings = recordsOf(frame.sessionRecordings);
    for (let i = 0; i < recordings.length; i++) {
      this.report(this.addSessionRecording(recordings[i]), f, 'sessionRecordings', i);
    }
  }

  private report(skipReason: string | undefined, f: number, field: string, i: number): void {
    if (skipReason !== undefined) this.skip(`collectionFrames[${f}].${field}[${i}]`, skipReason);
  }

  private skip(path: string, reason: string): void {
    this.skippedCount++;
    if (this.skipped.length < MAX_SKIPPED_DETAILS) this.skipped.push({ path, reason });
  }

  /** A trace becomes a root endpoint or task row; its spans hang under it. */
  private addTrace(raw: unknown, f: number, i: number): string | undefined {
    if (!isJsonObject(raw)) return NOT_AN_OBJECT;
    const id = toUuid(raw.id);
    if (id === undefined) return mustBe('id', A_UUID);
    const name = raw.endpoint;
    if (typeof name !== 'string') return mustBe('endpoint', A_STRING);
    const durationNs = toDurationNs(raw.duration);
    if (durationNs === undefined) return mustBe('duration', A_DURATION);
    const recordedAt = toUnixNanos(raw.recordedAt);
    if (recordedAt === undefined) return mustBe('recordedAt', A_TIMESTAMP);
    const statusCode = raw.statusCode;
    if (!isIntegerInRange(statusCode, MAX_STATUS_CODE)) return mustBe('statusCode', A_STATUS_CODE);
    const bodySize = raw.bodySize;
    if (!isIntegerInRange(bodySize, MAX_BODY_SIZE)) return mustBe('bodySize', A_SIZE);
    const clientIp = raw.clientIP;
    if (typeof clientIp !== 'string') return mustBe('clientIP', A_STRING);
    const attributes = toAttributes(raw.attributes);
    if (attributes === undefined) return attributesError(raw.attributes);
    const isTask = toOptionalBoolean(raw.isTask);
    if (isTask === undefined) return mustBe('isTask', A_BOOLEAN);

    // The attribute override of the spec first, then the reference clients' extra field.
    const distributedTraceId = distributedTraceIdOverride(attributes) ?? toUuid(raw.distributedTraceId) ?? id;
    if (distributedTraceId !== id) this.distributedTraceIds.set(id, distributedTraceId);

    /** The fields of a root endpoint and a root task alike: a task is just these. */
    const root: TaskRecord = {
      projectId: this.ctx.projectId,
      id,
      distributedTraceId,
      parentSpanId: NIL_UUID,
      isRoot: true,
      recordedAt,
      durationNs,
      serverName: this.serverName,
      appVersion: this.appVersion,
      attributes,
      source: 'report',
      name,
      statusCode,
    };
    if (isTask) {
      this.batch.tasks.push(root);
    } else {
      const methodLength = httpMethodLength(name);
      // Object.assign, not spread: `{ ...root, more }` falls off V8's fast path (validation took
      // 21-24 µs per trace with it, 3.6 µs without).
      this.batch.endpoints.push(
        Object.assign(root, {
          method: name.slice(0, methodLength),
          route: methodLength === 0 ? '' : name.slice(methodLength + 1),
          bodySize,
          clientIp,
          streaming: false,
        }),
      );
    }
    this.addSpans(raw.spans, id, f, i);
    return undefined;
  }

  /** Spans of the trace at `collectionFrames[f].traces[i]`: a bad span skips only itself. */
  private addSpans(raw: unknown, traceId: Uuid, f: number, i: number): void {
    if (raw === undefined || raw === null) return;
    if (!Array.isArray(raw)) {
      this.skip(`collectionFrames[${f}].traces[${i}]`, mustBe('spans', AN_ARRAY));
      return;
    }
    for (let j = 0; j < raw.length; j++) {
      const skipReason = this.addSpan(raw[j], traceId);
      if (skipReason !== undefined) this.skip(`collectionFrames[${f}].traces[${i}].spans[${j}]`, skipReason);
    }
  }

  private addSpan(raw: unknown, traceId: Uuid): string | undefined {
    if (!isJsonObject(raw)) return NOT_AN_OBJECT;
    const spanId = toUuid(raw.id);
    if (spanId === undefined) return mustBe('id', A_UUID);
    const name = raw.name;
    if (typeof name !== 'string') return mustBe('name', A_STRING);
    const startTime = toUnixNanos(raw.startTime);
    if (startTime === undefined) return mustBe('startTime', A_TIMESTAMP);
    const durationNs = toDurationNs(raw.duration);
    if (durationNs === undefined) return mustBe('duration', A_DURATION);
    this.batch.spans.push({
      projectId: this.ctx.projectId,
      traceId,
      spanId,
      parentSpanId: NIL_UUID,
      name,
      kind: 'INTERNAL',
      startTime,
      durationNs,
      statusCode: 0,
      // Not in the spec's span; kept when a client sends a well-formed map.
      attributes: toAttributes(raw.attributes) ?? {},
      events: [],
    });
    return undefined;
  }

  private addException(raw: unknown): string | undefined {
    if (!isJsonObject(raw)) return NOT_AN_OBJECT;
    const stackTrace = raw.stackTrace;
    if (typeof stackTrace !== 'string') return mustBe('stackTrace', A_STRING);
    const isMessage = raw.isMessage;
    if (typeof isMessage !== 'boolean') return mustBe('isMessage', A_BOOLEAN);
    const recordedAt = toUnixNanos(raw.recordedAt);
    if (recordedAt === undefined) return mustBe('recordedAt', A_TIMESTAMP);
    const traceId = toOptionalUuid(raw.traceId);
    if (traceId === undefined) return mustBe('traceId', A_UUID);
    const isTask = toOptionalBoolean(raw.isTask);
    if (isTask === undefined) return mustBe('isTask', A_BOOLEAN);
    const sessionId = toOptionalUuid(raw.sessionId);
    if (sessionId === undefined) return mustBe('sessionId', A_UUID);
    const sessionRecordingId = toOptionalUuid(raw.sessionRecordingId);
    if (sessionRecordingId === undefined) return mustBe('sessionRecordingId', A_UUID);
    const attributes = toAttributes(raw.attributes);
    if (attributes === undefined) return attributesError(raw.attributes);

    this.batch.exceptions.push({
      projectId: this.ctx.projectId,
      hash: exceptionHash(stackTrace, isMessage),
      dedupKey: exceptionDedupKey(recordedAt, isMessage, traceId, sessionId, stackTrace),
      recordedAt,
      stackTrace,
      rawStackTrace: '',
      isMessage,
      traceId,
      isTask,
      sessionId,
      sessionRecordingId,
      // An extra field of the reference clients; otherwise that of the owning trace.
      distributedTraceId: toUuid(raw.distributedTraceId) ?? this.distributedTraceIds.get(traceId) ?? traceId,
      serverName: this.serverName,
      appVersion: this.appVersion,
      attributes,
      source: 'report',
    });
    return undefined;
  }

  private addMetric(raw: unknown): string | undefined {
    if (!isJsonObject(raw)) return NOT_AN_OBJECT;
    const name = raw.name;
    if (typeof name !== 'string') return mustBe('name', A_STRING);
    const value = raw.value;
    if (typeof value !== 'number' || !Number.isFinite(value)) return mustBe('value', A_FINITE_NUMBER);
    const recordedAt = toUnixNanos(raw.recordedAt);
    if (recordedAt === undefined) return mustBe('recordedAt', A_TIMESTAMP);
    // `tags` is not in the spec's MetricRecord, but the reference clients send it.
    const dimensions = toAttributes(raw.tags) ?? {};

    this.batch.metricPoints.push({
      projectId: this.ctx.projectId,
      name,
      value,
      recordedAt,
      dimensions,
      serverName: this.serverName,
      dedupKey: metricDedupKey(name, recordedAt, value, this.serverName, dimensions),
      source: 'report',
    });
    return undefined;
  }

  private addSession(raw: unknown): string | undefined {
    if (!isJsonObject(raw)) return NOT_AN_OBJECT;
    const id = toUuid(raw.id);
    if (id === undefined) return mustBe('id', A_UUID);
    const startedAt = toUnixNanos(raw.startedAt);
    if (startedAt === undefined) return mustBe('startedAt', A_TIMESTAMP);
    const endedAt = toOptionalUnixNanos(raw.endedAt, null);
    if (endedAt === undefined) return mustBe('endedAt', A_TIMESTAMP);
    if (endedAt !== null && endedAt < startedAt) return ENDED_BEFORE_STARTED;
    const distributedTraceId = toOptionalUuid(raw.distributedTraceId);
    if (distributedTraceId === undefined) return mustBe('distributedTraceId', A_UUID);
    const rawAttributes = raw.attributes ?? {};
    if (!isJsonObject(rawAttributes)) return mustBe('attributes', AN_OBJECT);

    // The client has already merged caller keys over the auto-collected ones; the request's
    // address replaces whatever the client claimed.
    const attributes = copyAttributes(rawAttributes, {});
    if (attributes === undefined) return attributesError(rawAttributes);
    attributes[CLIENT_IP_ATTRIBUTE] = this.ctx.remoteIp;

    this.batch.sessions.push({
      projectId: this.ctx.projectId,
      id,
      startedAt,
      endedAt,
      durationNs: endedAt === null ? null : endedAt - startedAt,
      clientIp: this.ctx.remoteIp,
      attributes,
      distributedTraceId,
      updatedAt: this.ctx.receivedAt,
    });
    return undefined;
  }

  private addSessionRecording(raw: unknown): string | undefined {
    if (!isJsonObject(raw)) return NOT_AN_OBJECT;
    const exceptionId = toOptionalUuid(raw.exceptionId);
    if (exceptionId === undefined) return mustBe('exceptionId', A_UUID);
    const sessionId = toOptionalUuid(raw.sessionId);
    if (sessionId === undefined) return mustBe('sessionId', A_UUID);
    if (exceptionId === NIL_UUID && sessionId === NIL_UUID) return NO_RECORDING_OWNER;
    const segmentIndex = raw.segmentIndex ?? 0;
    if (!isIntegerInRange(segmentIndex, MAX_SEGMENT_INDEX)) return mustBe('segmentIndex', A_SEGMENT_INDEX);
    const events = raw.events;
    if (!Array.isArray(events)) return mustBe('events', AN_ARRAY);
    const logs = raw.logs ?? NO_RECORDS;
    if (!Array.isArray(logs)) return mustBe('logs', AN_ARRAY);
    const actions = raw.actions ?? NO_RECORDS;
    if (!Array.isArray(actions)) return mustBe('actions', AN_ARRAY);
    const startedAt = toOptionalUnixNanos(raw.startedAt, this.ctx.receivedAt);
    if (startedAt === undefined) return mustBe('startedAt', A_TIMESTAMP);
    const endedAt = toOptionalUnixNanos(raw.endedAt, this.ctx.receivedAt);
    if (endedAt === undefined) return mustBe('endedAt', A_TIMESTAMP);
    const eventsJson = toJsonText(events);
    if (eventsJson === undefined) return `events ${NESTS_TOO_DEEPLY}`;
    const logsJson = toJsonText(logs);
    if (logsJson === undefined) return `logs ${NESTS_TOO_DEEPLY}`;
    const actionsJson = toJsonText(actions);
    if (actionsJson === undefined) return `actions ${NESTS_TOO_DEEPLY}`;

    const key = recordingObjectKey(this.ctx.projectId, sessionId, exceptionId, segmentIndex);
    this.batch.sessionRecordings.push({
      projectId: this.ctx.projectId,
      sessionId,
      exceptionId,
      segmentIndex,
      startedAt,
      endedAt,
      eventCount: events.length,
      byteSize: Buffer.byteLength(eventsJson, 'utf8'),
      objectKey: key,
      logs: logsJson,
      actions: actionsJson,
      receivedAt: this.ctx.receivedAt,
    });
    this.recordingObjects.push({ key, events, eventsJson });
    return undefined;
  }
}
