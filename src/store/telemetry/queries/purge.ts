/**
 * Removing a deleted project's telemetry. Lightweight DELETE: the rows stop being read at once
 * and are dropped from disk as their parts merge. `ingest_usage` is kept: it is the
 * organization's billing record for the month, which deleting a project must not reset.
 */
import type { TelemetryEngine } from '../engine.js';

/** Every telemetry table keyed by project, except ingest_usage (a test checks none is missed). */
export const PURGED_TABLES = [
  'endpoints',
  'tasks',
  'ai_traces',
  'spans',
  'exceptions',
  'metric_points',
  'logs',
  'sessions',
  'session_recordings',
  'profiles',
  'endpoint_hourly',
  'rollup_hours',
] as const;

export const KEPT_TABLES = ['ingest_usage'] as const;

export async function purgeProjectTelemetry(engine: TelemetryEngine, projectId: string): Promise<void> {
  for (const table of PURGED_TABLES)
    await engine.command(`DELETE FROM ${table} WHERE project_id = {project:UUID}`, { project: projectId });
}
