/**
 * The figure the ingest quota is judged on: decompressed bytes an organization's projects sent
 * in one calendar month, summed from the durable `ingest_usage` table of the telemetry store
 * (the coordination-store counter is a fast copy for the quota check; it is rebuilt from this).
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
