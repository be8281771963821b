/**
 * Whether a project has received telemetry, for the Connection page and home's onboarding. Reads
 * the newest event time of the last day from each table a client writes (every sort key starts
 * with the project and, but for sessions, the hour, so this prunes to a day of one project), and
 * only when that finds nothing, whether any row exists at all (LIMIT 1 per table).
 */
import type { TelemetryEngine } from '../engine.js';
import { runQuery } from './run.js';

/** Each table a client writes, with its event-time column. Spans arrive with their entity. */
const EVENT_TABLES = [
  ['endpoints', 'recorded_at'],
  ['tasks', 'recorded_at'],
  ['ai_traces', 'recorded_at'],
  ['exceptions', 'recorded_at'],
  ['metric_points', 'recorded_at'],
  ['logs', 'timestamp'],
  ['sessions', 'started_at'],
  ['profiles', 'received_at'],
] as const;

/** How far back "receiving" looks: a project quiet for a day is shown as such, not as receiving. */
export const RECENT_WINDOW_MS = 24 * 3600 * 1000;

export interface DataStatus {
  /** Epoch milliseconds of the newest event of the last day, or null. */
  lastEventMs: number | null;
  /** Whether the project holds any event at all (older than a day included). */
  hasData: boolean;
}

export async function dataStatus(engine: TelemetryEngine, projectId: string, nowMs: number): Promise<DataStatus> {
  const params = { project: projectId, sinceMs: nowMs - RECENT_WINDOW_MS };
  const recent = EVENT_TABLES.map(
    ([table, column]) =>
      `SELECT toUnixTimestamp64Milli(max(${column})) AS t FROM ${table} WHERE project_id = {project:UUID} AND ${column} >= fromUnixTimestamp64Milli({sinceMs:Int64}) HAVING count() > 0`,
  ).join(' UNION ALL ');
  const [newest] = await runQuery<{ t: number | null }>(
    engine,
    'data-status.recent',
    `SELECT max(t) AS t, count() AS n FROM (${recent}) HAVING n > 0`,
    params,
  );
  if (newest?.t !== undefined && newest.t !== null) return { lastEventMs: Number(newest.t), hasData: true };
  const any = EVENT_TABLES.map(
    ([table]) => `(SELECT 1 AS x FROM ${table} WHERE project_id = {project:UUID} LIMIT 1)`,
  ).join(' UNION ALL ');
  const rows = await runQuery<{ x: number }>(engine, 'data-status.any', `SELECT x FROM (${any}) LIMIT 1`, {
    project: projectId,
  });
  return { lastEventMs: null, hasData: rows.length > 0 };
}
