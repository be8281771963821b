/**
 * Deleting a project's telemetry older than its plan keeps (application/jobs/retention-job.ts).
 * Lightweight DELETE, as for a deleted project (purge.ts): gone from reads at once, from disk as
 * parts merge. A statement is issued only where such rows exist, since every DELETE is a
 * mutation the engine must apply to each part it touches.
 */
import type { TelemetryEngine } from '../engine.js';

export interface RetainedTable {
  table: string;
  /** The column the table's TTL counts from. */
  timeColumn: string;
  /** Days the table's TTL keeps a row: a plan keeping as long or longer changes nothing. */
  ttlDays: number;
}

/**
 * Every table holding a project's records, with its TTL (telemetry migrations 0001 and 0002; a
 * test checks them against the engine). Not here: `rollup_hours` (the rollup's bookkeeping, no
 * records) and `ingest_usage` (the billing record, kept whatever the plan).
 */
export const RETAINED_TABLES: readonly RetainedTable[] = [
  { table: 'endpoints', timeColumn: 'recorded_at', ttlDays: 90 },
  { table: 'tasks', timeColumn: 'recorded_at', ttlDays: 90 },
  { table: 'ai_traces', timeColumn: 'recorded_at', ttlDays: 90 },
  { table: 'spans', timeColumn: 'start_time', ttlDays: 90 },
  { table: 'exceptions', timeColumn: 'recorded_at', ttlDays: 90 },
  { table: 'metric_points', timeColumn: 'recorded_at', ttlDays: 90 },
  { table: 'logs', timeColumn: 'timestamp', ttlDays: 30 },
  { table: 'sessions', timeColumn: 'started_at', ttlDays: 30 },
  { table: 'session_recordings', timeColumn: 'received_at', ttlDays: 30 },
  { table: 'profiles', timeColumn: 'received_at', ttlDays: 30 },
  { table: 'endpoint_hourly', timeColumn: 'hour', ttlDays: 90 },
];

/** Deletes the projects' rows of `table` from before `beforeMs`; false when there were none. */
export async function deleteRowsBefore(
  engine: TelemetryEngine,
  { table, timeColumn }: RetainedTable,
  projectIds: readonly string[],
  beforeMs: number,
): Promise<boolean> {
  const where = `project_id IN {projects:Array(UUID)} AND ${timeColumn} < fromUnixTimestamp64Milli({before:Int64})`;
  const params = { projects: projectIds, before: beforeMs };
  const found = await engine.query<{ one: number }>(`SELECT 1 AS one FROM ${table} WHERE ${where} LIMIT 1`, params);
  if (found.length === 0) return false;
  await engine.command(`DELETE FROM ${table} WHERE ${where}`, params);
  return true;
}
