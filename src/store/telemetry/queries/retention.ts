/**
 * Deleting a project's telemetry older than its plan keeps (application/jobs/retention-job.ts).
 * Lightweight DELETE, as for a deleted project (purge.ts): gone from reads at once, from disk as
 * parts merge. A statement is issued only where such rows exist, since every DELETE is a
 * mutation the engine must apply to each part it touches.
 */
import type { QueryParams, TelemetryEngine } from '../engine.js';
import { param, raw, sql, type Sql } from '../sql.js';

export interface RetainedTable {
  table: string;
  /** The column the table's TTL counts from. */
  timeColumn: string;
  /** Days the migrations' TTL keeps a row; the job reads the table's own (an operator may change it). */
  shippedTtlDays: number;
}

/**
 * Every table holding a project's records, with its TTL (telemetry migrations 0001 and 0002; a
 * test checks them against the engine). Not here: `rollup_hours` (the rollup's bookkeeping, no
 * records) and `ingest_usage` (the billing record, kept whatever the plan).
 */
export const RETAINED_TABLES = [
  { table: 'endpoints', timeColumn: 'recorded_at', shippedTtlDays: 90 },
  { table: 'tasks', timeColumn: 'recorded_at', shippedTtlDays: 90 },
  { table: 'ai_traces', timeColumn: 'recorded_at', shippedTtlDays: 90 },
  { table: 'spans', timeColumn: 'start_time', shippedTtlDays: 90 },
  { table: 'exceptions', timeColumn: 'recorded_at', shippedTtlDays: 90 },
  { table: 'metric_points', timeColumn: 'recorded_at', shippedTtlDays: 90 },
  { table: 'logs', timeColumn: 'timestamp', shippedTtlDays: 30 },
  { table: 'sessions', timeColumn: 'started_at', shippedTtlDays: 30 },
  { table: 'session_recordings', timeColumn: 'received_at', shippedTtlDays: 30 },
  { table: 'profiles', timeColumn: 'received_at', shippedTtlDays: 30 },
  { table: 'endpoint_hourly', timeColumn: 'hour', shippedTtlDays: 90 },
] as const satisfies readonly RetainedTable[];

export type RetainedTableName = (typeof RETAINED_TABLES)[number]['table'];

/** The column `table`'s retention counts from. */
export const timeColumnOf = (table: RetainedTableName): string =>
  RETAINED_TABLES.find((t) => t.table === table)!.timeColumn;

/**
 * The rows of `table` a plan still keeps: its retention column from `keptFromMs` on. Reads by id
 * take it so that they answer as if the retention job, which runs only hourly, had just run.
 */
export function keptRowsOf(table: RetainedTableName, keptFromMs: number): Sql {
  return sql`${raw(timeColumnOf(table))} >= fromUnixTimestamp64Milli(${param(keptFromMs, 'Int64')})`;
}

const DAYS_PER_UNIT: Record<string, number> = { HOUR: 1 / 24, DAY: 1, WEEK: 7, MONTH: 31, QUARTER: 92, YEAR: 366 };

/**
 * Days a table's TTL keeps a row, read from its definition (`system.tables.engine_full`, which
 * ClickHouse writes as `TTL toDateTime(t) + toIntervalDay(90)`); undefined when the table has no TTL
 * or one this cannot read, so that every plan is applied to it. Months and years count long: a
 * TTL read as longer than it is only costs a look for rows that are not there.
 */
export function ttlDaysOf(engineFull: string): number | undefined {
  const clause = /\bTTL\s+(.*?)(?:\s+SETTINGS\s|$)/s.exec(engineFull)?.[1];
  if (!clause || clause.includes(',')) return undefined;
  const interval =
    /^(?:toDateTime\(\w+\)|\w+)\s*\+\s*(?:toInterval(Hour|Day|Week|Month|Quarter|Year)\((\d+)\)|INTERVAL\s+(\d+)\s+(HOUR|DAY|WEEK|MONTH|QUARTER|YEAR))(?:\s+DELETE)?$/i.exec(
      clause.trim(),
    );
  if (!interval) return undefined;
  const unit = (interval[1] ?? interval[4])!.toUpperCase();
  return Number(interval[2] ?? interval[3]) * DAYS_PER_UNIT[unit]!;
}

/** Each retained table's TTL in days as the engine has it now (see ttlDaysOf). */
export async function retainedTableTtlDays(engine: TelemetryEngine): Promise<Map<string, number | undefined>> {
  const rows = await engine.query<{ name: string; engine_full: string }>(
    'SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN {tables:Array(String)}',
    { tables: RETAINED_TABLES.map((t) => t.table) },
  );
  return new Map(rows.map((row) => [row.name, ttlDaysOf(row.engine_full)]));
}

/** Deletes the projects' rows of `table` from before `beforeMs`; false when there were none. */
export async function deleteRowsBefore(
  engine: TelemetryEngine,
  { table, timeColumn }: RetainedTable,
  projectIds: readonly string[],
  beforeMs: number,
): Promise<boolean> {
  const where = `project_id IN {projects:Array(UUID)} AND ${timeColumn} < fromUnixTimestamp64Milli({before:Int64})`;
  return deleteWhere(engine, table, where, { projects: projectIds, before: beforeMs });
}

/**
 * The recording segments of the projects' sessions started before `before`, whenever they arrived.
 * The job deletes them with their sessions: by its own arrival alone, a segment that came after its
 * session's start would outlive the session, unreadable (a recording is read only with its session)
 * and its stored events orphaned.
 */
const RECORDINGS_OF_SESSIONS_BEFORE = `project_id IN {projects:Array(UUID)} AND session_id IN (
  SELECT id FROM sessions WHERE project_id IN {projects:Array(UUID)} AND started_at < fromUnixTimestamp64Milli({before:Int64}))`;

/** Object keys per page of recordingKeysOfSessionsBefore. */
export const RECORDING_KEYS_PAGE = 1000;

/**
 * A page of the object keys of those segments, in key order after `afterKey`. Only keys under their
 * own project's prefix, as the recording route reads them: a row never names another project's object.
 */
export async function recordingKeysOfSessionsBefore(
  engine: TelemetryEngine,
  projectIds: readonly string[],
  beforeMs: number,
  afterKey = '',
): Promise<string[]> {
  const rows = await engine.query<{ object_key: string }>(
    `SELECT DISTINCT object_key FROM session_recordings WHERE ${RECORDINGS_OF_SESSIONS_BEFORE}
       AND startsWith(object_key, concat('recordings/', toString(project_id), '/')) AND object_key > {after:String}
     ORDER BY object_key LIMIT {limit:UInt32}`,
    { projects: projectIds, before: beforeMs, after: afterKey, limit: RECORDING_KEYS_PAGE },
  );
  return rows.map((row) => row.object_key);
}

/** Deletes the rows of those segments; false when there were none. */
export async function deleteRecordingsOfSessionsBefore(
  engine: TelemetryEngine,
  projectIds: readonly string[],
  beforeMs: number,
): Promise<boolean> {
  return deleteWhere(engine, 'session_recordings', RECORDINGS_OF_SESSIONS_BEFORE, {
    projects: projectIds,
    before: beforeMs,
  });
}

async function deleteWhere(
  engine: TelemetryEngine,
  table: string,
  where: string,
  params: QueryParams,
): Promise<boolean> {
  const found = await engine.query<{ one: number }>(`SELECT 1 AS one FROM ${table} WHERE ${where} LIMIT 1`, params);
  if (found.length === 0) return false;
  await engine.command(`DELETE FROM ${table} WHERE ${where}`, params);
  return true;
}
