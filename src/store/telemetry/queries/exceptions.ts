/**
 * Issues: exceptions grouped by hash and ranked, their sparkline series, linked entities, and
 * the occurrences of one group. Deduplication: exceptions are ReplacingMergeTree on
 * (hash, dedup_key); the group list counts with FINAL.
 */
import type { TelemetryEngine } from '../engine.js';
import { empty, param, raw, sql } from '../sql.js';
import { Filters, type FilterAllowList, type PageInput, type SearchPageInput } from './filters.js';
import { isoOf, nullIfNil } from './convert.js';
import { bucketOf, inRange, limitOffset, ofProject, ownValue, runQuery, type TimeRange } from './run.js';
import { sessionsWithRecordingOf } from './sessions.js';

export const EXCEPTION_FILTERS: FilterAllowList = {
  fields: {
    hash: { sql: 'hash', type: 'string' },
    isMessage: { sql: 'is_message', type: 'bool' },
    isTask: { sql: 'is_task', type: 'bool' },
    serverName: { sql: 'server_name', type: 'string' },
    appVersion: { sql: 'app_version', type: 'string' },
    source: { sql: 'source', type: 'string' },
    stackTrace: { sql: 'stack_trace', type: 'string' },
    /** The owning entity's id (a trace page lists its exceptions). */
    traceId: { sql: 'toString(trace_id)', type: 'string' },
  },
  maps: { attributes: 'attributes' },
};

export const EXCEPTION_ORDER: Record<string, string> = {
  count: 'count',
  lastSeen: 'last_seen',
  firstSeen: 'first_seen',
  sessionsAffected: 'sessions',
  usersAffected: 'users',
};

/** The user of an occurrence: the first of these attributes that is set. */
const USER = raw(
  "coalesce(nullIf(attributes['user.id'], ''), nullIf(attributes['enduser.id'], ''), nullIf(attributes['userId'], ''))",
);

export interface ExceptionGroupRow {
  /** Bucket starts (epoch seconds) and counts of the sparkline. */
  spark: [number[], number[]];
  hash: string;
  title: string;
  sample_trace: string;
  message_flag: boolean;
  count: number;
  sessions: number;
  users: number;
  first_seen: string;
  last_seen: string;
  last_trace_id: string;
  last_is_task: boolean;
  /** The last linked entity, when asked for (withLinked) and still within reach. */
  linked: LinkedEntity | null;
}

export interface LinkedEntity {
  kind: 'endpoint' | 'task';
  name: string;
}

/** One stack-trace text per group hash, read for the page's groups only (the widest column). */
export async function groupTexts(
  engine: TelemetryEngine,
  projectId: string,
  hashes: readonly string[],
  range: TimeRange,
): Promise<Map<string, string>> {
  if (hashes.length === 0) return new Map();
  const rows = await runQuery<{ hash: string; sample_trace: string }>(
    engine,
    'exceptions.groups.text',
    sql`SELECT hash, stack_trace AS sample_trace FROM exceptions
      WHERE ${ofProject(projectId)} AND ${inRange('recorded_at', range)} AND hash IN ${param(hashes, 'Array(String)')}
      LIMIT 1 BY hash`,
  );
  return new Map(rows.map((row) => [row.hash, row.sample_trace]));
}

export interface ExceptionGroupInput extends SearchPageInput {
  /** Sparkline bucket: the per-bucket counts come from the same pass (sumMap). */
  bucketSeconds: number;
  /** Look up the name of each group's last linked endpoint or task, if kept from `keptFromMs` on (entityNames). */
  withLinked?: { keptFromMs: number } | undefined;
  /** Only these hashes, or all but these (the issue status filter, read from the metadata store). */
  hashes?: { include: readonly string[] } | { exclude: readonly string[] } | undefined;
}

export async function exceptionGroups(
  engine: TelemetryEngine,
  projectId: string,
  input: ExceptionGroupInput,
): Promise<{ rows: ExceptionGroupRow[]; total: number }> {
  const search = input.search
    ? sql` AND positionCaseInsensitiveUTF8(stack_trace, ${param(input.search, 'String')}) > 0`
    : empty;
  const withStatus =
    input.hashes && 'include' in input.hashes
      ? sql` AND hash IN ${param(input.hashes.include, 'Array(String)')}`
      : input.hashes && input.hashes.exclude.length > 0
        ? sql` AND hash NOT IN ${param(input.hashes.exclude, 'Array(String)')}`
        : empty;
  const where = sql`${ofProject(projectId)} AND ${inRange('recorded_at', input.range)}${(input.filters ?? Filters.none).sql}${search}${withStatus}`;
  const order = ownValue(EXCEPTION_ORDER, input.orderBy) ?? 'count';
  // The stack-trace text (the widest column) is read afterwards for the page's groups only.
  const groups = await runQuery<
    Omit<ExceptionGroupRow, 'sample_trace' | 'title' | 'linked'> & { total_groups: number }
  >(
    engine,
    'exceptions.groups',
    sql`SELECT hash, any(is_message) AS message_flag,
              count() AS count, uniqExactIf(session_id, session_id != toUUID('00000000-0000-0000-0000-000000000000')) AS sessions,
              uniqExactIf(${USER}, ${USER} IS NOT NULL) AS users,
              toString(min(recorded_at)) AS first_seen, toString(max(recorded_at)) AS last_seen,
              argMax(trace_id, recorded_at) AS last_trace_id, argMax(is_task, recorded_at) AS last_is_task,
              sumMap([${bucketOf('recorded_at', input.bucketSeconds)}], [toUInt64(1)]) AS spark,
              count() OVER () AS total_groups
         FROM exceptions FINAL WHERE ${where}
        GROUP BY hash
        ORDER BY ${raw(order)} ${raw(input.direction === 'asc' ? 'ASC' : 'DESC')}, hash
        ${limitOffset(input)}`,
  );
  // The page's stack-trace texts and linked entities are independent lookups: run them together.
  const [texts, linked] = await Promise.all([
    groupTexts(
      engine,
      projectId,
      groups.map((row) => row.hash),
      input.range,
    ),
    input.withLinked
      ? entityNames(
          engine,
          projectId,
          groups.map((row) => row.last_trace_id),
          input.range,
          input.withLinked.keptFromMs,
        )
      : new Map<string, LinkedEntity>(),
  ]);
  const rows: ExceptionGroupRow[] = groups.map((row) => {
    const text = texts.get(row.hash) ?? '';
    return {
      ...row,
      sample_trace: text,
      title: text.split('\n', 1)[0] ?? '',
      linked: linked.get(row.last_trace_id) ?? null,
    };
  });
  if (rows.length > 0 || input.page === 1) return { rows, total: groups[0]?.total_groups ?? 0 };
  // A page past the end has no row to carry the total: count the groups.
  const totals = await runQuery<{ total: number }>(
    engine,
    'exceptions.groups.count',
    sql`SELECT uniqExact(hash) AS total FROM exceptions WHERE ${where}`,
  );
  return { rows, total: totals[0]?.total ?? 0 };
}

/**
 * Names of linked endpoints and tasks by entity id. An entity is recorded before its exceptions
 * (at most a day before, for a long task), so the lookup reads only [from - 1 day, to) and never
 * scans the project's whole history for a handful of ids; and never before `keptFromMs` (the
 * plan's retention), where the entity's own page is not found.
 */
export async function entityNames(
  engine: TelemetryEngine,
  projectId: string,
  ids: readonly string[],
  range: TimeRange,
  keptFromMs: number,
): Promise<Map<string, LinkedEntity>> {
  const wanted = [...new Set(ids.filter((id) => nullIfNil(id) !== null))];
  if (wanted.length === 0) return new Map();
  const fromMs = Math.max(range.fromMs - 86400_000, keptFromMs);
  const where = sql`${ofProject(projectId)} AND ${inRange('recorded_at', { fromMs, toMs: range.toMs })} AND id IN ${param(wanted, 'Array(UUID)')}`;
  const rows = await runQuery<{ id: string; kind: 'endpoint' | 'task'; name: string }>(
    engine,
    'exceptions.linked',
    sql`SELECT id, 'endpoint' AS kind, any(name) AS name FROM endpoints WHERE ${where} GROUP BY id
     UNION ALL
     SELECT id, 'task' AS kind, any(name) AS name FROM tasks WHERE ${where} GROUP BY id`,
  );
  return new Map(rows.map((row) => [row.id, { kind: row.kind, name: row.name }]));
}

export interface OccurrenceRow {
  recorded_at: string;
  stack_trace: string;
  raw_stack_trace: string;
  is_message: boolean;
  trace_id: string;
  is_task: boolean;
  session_id: string;
  session_recording_id: string;
  distributed_trace_id: string;
  server_name: string;
  app_version: string;
  attributes: Record<string, string>;
  source: string;
  has_recording: number;
}

export async function exceptionOccurrences(
  engine: TelemetryEngine,
  projectId: string,
  hash: string,
  input: PageInput & { keptFromMs: number },
): Promise<{ rows: OccurrenceRow[]; total: number }> {
  const project = ofProject(projectId);
  const where = sql`${project} AND hash = ${param(hash, 'String')} AND ${inRange('recorded_at', input.range)}${(input.filters ?? Filters.none).sql}`;
  const [rows, totals] = await Promise.all([
    runQuery<OccurrenceRow>(
      engine,
      'exceptions.occurrences',
      sql`SELECT recorded_at, stack_trace, raw_stack_trace, is_message, trace_id, is_task, session_id, session_recording_id,
              distributed_trace_id, server_name, app_version, attributes, source,
              (session_id != toUUID('00000000-0000-0000-0000-000000000000') AND session_id IN (
                 ${sessionsWithRecordingOf(projectId, input.keptFromMs)})) AS has_recording
         FROM exceptions FINAL WHERE ${where}
        ORDER BY recorded_at ${raw(input.direction === 'asc' ? 'ASC' : 'DESC')}, dedup_key
        ${limitOffset(input)}`,
    ),
    runQuery<{ total: number }>(
      engine,
      'exceptions.occurrences.count',
      sql`SELECT count() AS total FROM exceptions FINAL WHERE ${where}`,
    ),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export const occurrenceOf = (row: OccurrenceRow) => ({
  recordedAt: isoOf(row.recorded_at),
  stackTrace: row.stack_trace,
  rawStackTrace: row.raw_stack_trace,
  isMessage: Boolean(row.is_message),
  traceId: nullIfNil(row.trace_id),
  isTask: Boolean(row.is_task),
  sessionId: nullIfNil(row.session_id),
  sessionRecordingId: nullIfNil(row.session_recording_id),
  hasRecording: Boolean(row.has_recording),
  distributedTraceId: nullIfNil(row.distributed_trace_id),
  serverName: row.server_name,
  appVersion: row.app_version,
  attributes: row.attributes,
  source: row.source,
});

/**
 * The app version of each hash's latest occurrence in `range` that names one (what "resolved in
 * the next version" compares against when no version is given).
 */
export async function latestAppVersions(
  engine: TelemetryEngine,
  projectId: string,
  hashes: readonly string[],
  range: TimeRange,
): Promise<Map<string, string>> {
  if (hashes.length === 0) return new Map();
  const rows = await runQuery<{ hash: string; version: string }>(
    engine,
    'exceptions.latest-version',
    sql`SELECT hash, argMax(app_version, recorded_at) AS version FROM exceptions
      WHERE ${ofProject(projectId)} AND ${inRange('recorded_at', range)}
        AND hash IN ${param(hashes, 'Array(String)')} AND app_version != ''
      GROUP BY hash`,
  );
  return new Map(rows.map((row) => [row.hash, row.version]));
}
