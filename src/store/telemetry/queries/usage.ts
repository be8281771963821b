/**
 * Decompressed bytes an organization's projects sent in one calendar month, as versions before
 * metadata migration 0010 recorded them: rows of the telemetry store's `ingest_usage` table.
 * Usage is now recorded in the metadata store; application/ingest-usage.ts adds the two.
 */
import type { TelemetryEngine } from '../engine.js';

/** `period` is the month, `YYYY-MM`. */
export async function ingestBytesOfMonth(
  telemetry: TelemetryEngine,
  organizationId: string,
  period: string,
): Promise<number> {
  const rows = await telemetry.query<{ bytes: number }>(
    'SELECT sum(bytes) AS bytes FROM ingest_usage WHERE organization_id = {organizationId:UUID} AND month = {month:Date}',
    { organizationId, month: `${period}-01` },
  );
  return rows[0]?.bytes ?? 0;
}

/** Organizations with rows in the month (`YYYY-MM`), for jobs that go through every organization that ingested. */
export async function organizationsWithIngestInMonth(telemetry: TelemetryEngine, period: string): Promise<string[]> {
  const rows = await telemetry.query<{ organization_id: string }>(
    'SELECT DISTINCT organization_id FROM ingest_usage WHERE month = {month:Date} AND bytes > 0',
    { month: `${period}-01` },
  );
  return rows.map((row) => row.organization_id);
}

/** Whether earlier versions recorded any ingest of the project (their rows are kept 400 days). */
export async function projectIngestedBefore(telemetry: TelemetryEngine, projectId: string): Promise<boolean> {
  const rows = await telemetry.query<{ x: number }>(
    'SELECT 1 AS x FROM ingest_usage WHERE project_id = {projectId:UUID} AND bytes > 0 LIMIT 1',
    { projectId },
  );
  return rows.length > 0;
}
