/**
 * Whether a project has received telemetry, for the Connection page and home's onboarding. Reads
 * the newest event time of the last day from each table a client writes (every sort key starts
 * with the project and, but for sessions, the hour, so this prunes to a day of one project), and
 * only when that finds nothing, whether any row exists at all (LIMIT 1 per table). Both read only
 * what the plan keeps (keptRowsOf), as if the retention job had just run: data the dashboard no
 * longer shows anywhere does not make the project one that "received data before".
 */
import type { TelemetryEngine } from '../engine.js';
import { join, raw, sql } from '../sql.js';
import { keptRowsOf, timeColumnOf, type RetainedTableName } from './retention.js';
import { ofProject, runQuery } from './run.js';

/** Each table a client writes (its event-time column is its retention column). Spans arrive with their entity. */
const EVENT_TABLES: readonly RetainedTableName[] = [
  'endpoints',
  'tasks',
  'ai_traces',
  'exceptions',
  'metric_points',
  'logs',
  'sessions',
  'profiles',
];

/** How far back "receiving" looks: a project quiet for a day is shown as such, not as receiving. */
export const RECENT_WINDOW_MS = 24 * 3600 * 1000;

export interface DataStatus {
  /** Epoch milliseconds of the newest event of the last day, or null. */
  lastEventMs: number | null;
  /** Whether the project holds any event its plan still keeps (older than a day included). */
  hasData: boolean;
}

/** `keptFromMs`: the first instant the project's plan keeps (readClockOf). */
export async function dataStatus(
  engine: TelemetryEngine,
  projectId: string,
  nowMs: number,
  keptFromMs: number,
): Promise<DataStatus> {
  const project = ofProject(projectId);
  const sinceMs = Math.max(nowMs - RECENT_WINDOW_MS, keptFromMs);
  const recent = EVENT_TABLES.map(
    (table) =>
      sql`SELECT toUnixTimestamp64Milli(max(${raw(timeColumnOf(table))})) AS t FROM ${raw(table)} WHERE ${project} AND ${keptRowsOf(table, sinceMs)} HAVING count() > 0`,
  );
  const [newest] = await runQuery<{ t: number | null }>(
    engine,
    'data-status.recent',
    sql`SELECT max(t) AS t, count() AS n FROM (${join(recent, ' UNION ALL ')}) HAVING n > 0`,
  );
  if (newest?.t !== undefined && newest.t !== null) return { lastEventMs: Number(newest.t), hasData: true };
  const any = EVENT_TABLES.map(
    (table) => sql`(SELECT 1 AS x FROM ${raw(table)} WHERE ${project} AND ${keptRowsOf(table, keptFromMs)} LIMIT 1)`,
  );
  const rows = await runQuery<{ x: number }>(
    engine,
    'data-status.any',
    sql`SELECT x FROM (${join(any, ' UNION ALL ')}) LIMIT 1`,
  );
  return { lastEventMs: null, hasData: rows.length > 0 };
}
