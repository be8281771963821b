/**
 * Whether a project has received telemetry, for the Connection page and home's onboarding. Reads
 * the newest event time of the last day from each table a client writes (every sort key starts
 * with the project and, but for sessions, the hour, so this prunes to a day of one project), and
 * only when that finds nothing, whether any row exists at all (LIMIT 1 per table).
 */
import type { TelemetryEngine } from '../engine.js';
import { join, param, raw, sql } from '../sql.js';
import { ofProject, runQuery } from './run.js';

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
  const project = ofProject(projectId);
  const since = param(nowMs - RECENT_WINDOW_MS, 'Int64');
  const recent = EVENT_TABLES.map(
    ([table, column]) =>
      sql`SELECT toUnixTimestamp64Milli(max(${raw(column)})) AS t FROM ${raw(table)} WHERE ${project} AND ${raw(column)} >= fromUnixTimestamp64Milli(${since}) HAVING count() > 0`,
  );
  const [newest] = await runQuery<{ t: number | null }>(
    engine,
    'data-status.recent',
    sql`SELECT max(t) AS t, count() AS n FROM (${join(recent, ' UNION ALL ')}) HAVING n > 0`,
  );
  if (newest?.t !== undefined && newest.t !== null) return { lastEventMs: Number(newest.t), hasData: true };
  const any = EVENT_TABLES.map(([table]) => sql`(SELECT 1 AS x FROM ${raw(table)} WHERE ${project} LIMIT 1)`);
  const rows = await runQuery<{ x: number }>(
    engine,
    'data-status.any',
    sql`SELECT x FROM (${join(any, ' UNION ALL ')}) LIMIT 1`,
  );
  return { lastEventMs: null, hasData: rows.length > 0 };
}
