/**
 * Browser sessions: list with filters (URL, user agent, time, has errors), detail with linked
 * exceptions, and the recording segments of a session in segmentIndex order. sessions and
 * session_recordings are ReplacingMergeTree by version: read FINAL.
 */
import type { TelemetryEngine } from '../engine.js';
import { empty, param, raw, sql, type Sql } from '../sql.js';
import { Filters, type FilterAllowList, type PageInput } from './filters.js';
import { isoOf, nullIfNil } from './convert.js';
import { inRange, ofProject, runQuery, type TimeRange } from './run.js';
import { keptRowsOf } from './retention.js';

export const SESSION_FILTERS: FilterAllowList = {
  fields: {
    url: { sql: "attributes['url']", type: 'string' },
    path: { sql: "attributes['path']", type: 'string' },
    userAgent: { sql: "attributes['userAgent']", type: 'string' },
    clientIp: { sql: 'client_ip', type: 'string' },
    durationMs: { sql: 'duration_ns / 1e6', type: 'number' },
  },
  maps: { attributes: 'attributes' },
};

const ZERO = "toUUID('00000000-0000-0000-0000-000000000000')";

interface SessionRow {
  id: string;
  started_at: string;
  ended_at: string | null;
  duration_ns: number | null;
  client_ip: string;
  attributes: Record<string, string>;
  distributed_trace_id: string;
  error_count: number;
  segments: number;
}

const toSession = (row: SessionRow) => ({
  id: row.id,
  startedAt: isoOf(row.started_at),
  endedAt: isoOf(row.ended_at),
  durationMs: row.duration_ns === null ? null : row.duration_ns / 1e6,
  clientIp: row.client_ip,
  url: row.attributes.url ?? null,
  userAgent: row.attributes.userAgent ?? null,
  attributes: row.attributes,
  distributedTraceId: nullIfNil(row.distributed_trace_id),
  errorCount: row.error_count,
  recordingSegments: row.segments,
});

export type SessionItem = ReturnType<typeof toSession>;

/** Sessions last at most 60 minutes (plus the 15-minute inactivity timeout): their exceptions fall in [start, start + 2 h). */
const SESSION_SPAN_MS = 2 * 3600_000;

/** Exceptions of the sessions started in the range. */
function errorsWithin(range: TimeRange): Sql {
  return inRange('recorded_at', { fromMs: range.fromMs, toMs: range.toMs + SESSION_SPAN_MS });
}

export async function listSessions(
  engine: TelemetryEngine,
  projectId: string,
  input: PageInput & { hasErrors?: boolean | undefined; keptFromMs: number },
): Promise<{ items: SessionItem[]; hasMore: boolean }> {
  const project = ofProject(projectId);
  const errorsRange = errorsWithin(input.range);
  const withErrors =
    input.hasErrors === undefined
      ? empty
      : sql` AND id ${raw(input.hasErrors ? '' : 'NOT ')}IN (SELECT session_id FROM exceptions WHERE ${project} AND session_id != ${raw(ZERO)} AND ${errorsRange})`;
  const where = sql`${project} AND ${inRange('started_at', input.range)}${(input.filters ?? Filters.none).sql}${withErrors}`;
  // The page first, then the error and segment counts of its sessions only.
  const page = await runQuery<Omit<SessionRow, 'error_count' | 'segments'>>(
    engine,
    'sessions.list',
    sql`SELECT id, started_at, ended_at, duration_ns, client_ip, attributes, distributed_trace_id FROM sessions FINAL WHERE ${where}
      ORDER BY started_at ${raw(input.direction === 'asc' ? 'ASC' : 'DESC')}, id LIMIT ${param(input.pageSize + 1, 'UInt32')} OFFSET ${param((input.page - 1) * input.pageSize, 'UInt32')}`,
  );
  const rows = page.slice(0, input.pageSize);
  const counts = new Map<string, { errors: number; segments: number }>();
  if (rows.length > 0) {
    const ids = param(
      rows.map((row) => row.id),
      'Array(UUID)',
    );
    const found = await runQuery<{ session_id: string; errors: number; segments: number }>(
      engine,
      'sessions.list.counts',
      sql`SELECT session_id, sum(errors) AS errors, sum(segments) AS segments FROM (
         SELECT session_id, count() AS errors, 0 AS segments FROM exceptions
          WHERE ${project} AND ${errorsRange} AND session_id IN ${ids} GROUP BY session_id
         UNION ALL
         SELECT session_id, 0 AS errors, uniqExact(segment_index) AS segments FROM session_recordings
          WHERE ${project} AND session_id IN ${ids} AND ${keptRowsOf('session_recordings', input.keptFromMs)} GROUP BY session_id)
       GROUP BY session_id`,
    );
    for (const row of found) counts.set(row.session_id, { errors: row.errors, segments: row.segments });
  }
  const items = rows.map((row) =>
    toSession({ ...row, error_count: counts.get(row.id)?.errors ?? 0, segments: counts.get(row.id)?.segments ?? 0 }),
  );
  return { items, hasMore: page.length > input.pageSize };
}

/**
 * The session `id` of the project when its plan still keeps it (started from `keptFromMs` on). Its
 * detail and its recording both read through this, so that one is found exactly when the other
 * is: the retention job removes a session by its start, with every recording segment of it.
 */
const keptSession = (projectId: string, id: string, keptFromMs: number): Sql =>
  sql`SELECT * FROM sessions FINAL WHERE ${ofProject(projectId)} AND id = ${param(id, 'UUID')} AND ${keptRowsOf('sessions', keptFromMs)}`;

/**
 * Ids of the project's sessions whose recording a read answers (recordingSegments): a segment
 * received from `keptFromMs` on, of a session started from then on.
 */
export const sessionsWithRecordingOf = (projectId: string, keptFromMs: number): Sql =>
  sql`SELECT session_id FROM session_recordings WHERE ${ofProject(projectId)} AND ${keptRowsOf('session_recordings', keptFromMs)}
       AND session_id IN (SELECT id FROM sessions WHERE ${ofProject(projectId)} AND ${keptRowsOf('sessions', keptFromMs)})`;

/**
 * One session of the project, its exceptions and recording segments, each from `keptFromMs` on
 * (the plan's retention); null when the session itself is older.
 */
export async function findSession(engine: TelemetryEngine, projectId: string, id: string, keptFromMs: number) {
  const project = ofProject(projectId);
  const session = param(id, 'UUID');
  const keptExceptions = keptRowsOf('exceptions', keptFromMs);
  const keptSegments = keptRowsOf('session_recordings', keptFromMs);
  const [rows, exceptions, segments] = await Promise.all([
    runQuery<SessionRow>(
      engine,
      'sessions.detail',
      sql`SELECT s.id AS id, s.started_at AS started_at, s.ended_at AS ended_at, s.duration_ns AS duration_ns, s.client_ip AS client_ip, s.attributes AS attributes,
                 s.distributed_trace_id AS distributed_trace_id, ifNull(e.n, 0) AS error_count, ifNull(r.n, 0) AS segments
            FROM (${keptSession(projectId, id, keptFromMs)}) AS s
            LEFT JOIN (SELECT session_id, count() AS n FROM exceptions WHERE ${project} AND session_id != ${raw(ZERO)} AND session_id = ${session} AND ${keptExceptions} GROUP BY session_id) AS e ON e.session_id = s.id
            LEFT JOIN (SELECT session_id, uniqExact(segment_index) AS n FROM session_recordings WHERE ${project} AND session_id = ${session} AND ${keptSegments} GROUP BY session_id) AS r ON r.session_id = s.id
           LIMIT 1`,
    ),
    runQuery<{ hash: string; recorded_at: string; title: string; is_message: boolean }>(
      engine,
      'sessions.exceptions',
      sql`SELECT hash, recorded_at, splitByChar('\\n', stack_trace)[1] AS title, is_message FROM exceptions FINAL
        WHERE ${project} AND session_id = ${session} AND ${keptExceptions} ORDER BY recorded_at LIMIT 500`,
    ),
    recordingSegments(engine, projectId, id, keptFromMs),
  ]);
  const row = rows[0];
  if (!row) return null;
  return {
    ...toSession(row),
    exceptions: exceptions.map((e) => ({
      hash: e.hash,
      recordedAt: isoOf(e.recorded_at),
      title: e.title,
      isMessage: Boolean(e.is_message),
    })),
    segments: segments.map((s) => ({
      segmentIndex: s.segmentIndex,
      startedAt: s.startedAt,
      endedAt: s.endedAt,
      eventCount: s.eventCount,
      byteSize: s.byteSize,
    })),
  };
}

export interface RecordingSegment {
  segmentIndex: number;
  exceptionId: string | null;
  startedAt: string | null;
  endedAt: string | null;
  eventCount: number;
  byteSize: number;
  objectKey: string;
  logs: string;
  actions: string;
}

/**
 * Always-on segments of a session received from `keptFromMs` on, by segmentIndex (the newest copy
 * of a re-sent segment); none when the session itself is older (keptSession), however late its
 * segments arrived.
 */
export async function recordingSegments(
  engine: TelemetryEngine,
  projectId: string,
  sessionId: string,
  keptFromMs: number,
): Promise<RecordingSegment[]> {
  const rows = await runQuery<{
    segment_index: number;
    exception_id: string;
    started_at: string;
    ended_at: string;
    event_count: number;
    byte_size: number;
    object_key: string;
    logs: string;
    actions: string;
  }>(
    engine,
    'sessions.segments',
    sql`SELECT segment_index, exception_id, started_at, ended_at, event_count, byte_size, object_key, logs, actions
       FROM session_recordings FINAL WHERE ${ofProject(projectId)} AND session_id = ${param(sessionId, 'UUID')} AND ${keptRowsOf('session_recordings', keptFromMs)}
        AND session_id IN (SELECT id FROM (${keptSession(projectId, sessionId, keptFromMs)}))
      ORDER BY segment_index, exception_id LIMIT 1 BY segment_index LIMIT 10000`,
  );
  return rows.map((row) => ({
    segmentIndex: row.segment_index,
    exceptionId: nullIfNil(row.exception_id),
    startedAt: isoOf(row.started_at),
    endedAt: isoOf(row.ended_at),
    eventCount: row.event_count,
    byteSize: row.byte_size,
    objectKey: row.object_key,
    logs: row.logs,
    actions: row.actions,
  }));
}
