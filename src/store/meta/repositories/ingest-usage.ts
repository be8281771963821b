/**
 * Ingest usage per project and month (migration 0010). Additions are summed into one row per
 * (project, month); a batch of requests costs one statement (jsonb_to_recordset).
 */
import type { IngestUsageRecord } from '../../../core/records.js';
import type { MetaTx } from '../types.js';

/** Adds each record's bytes, requests and skipped records to its project's month. */
export async function addIngestUsage(db: MetaTx, records: readonly IngestUsageRecord[]): Promise<void> {
  if (records.length === 0) return;
  await db.query(
    `INSERT INTO ingest_usage (project_id, month, organization_id, bytes, requests, skipped_records)
     SELECT r.project_id, r.month, r.organization_id, sum(r.bytes), sum(r.requests), sum(r.skipped_records)
       FROM jsonb_to_recordset($1::jsonb)
         AS r(project_id uuid, month date, organization_id uuid, bytes bigint, requests bigint, skipped_records bigint)
      GROUP BY r.project_id, r.month, r.organization_id
     ON CONFLICT (project_id, month) DO UPDATE SET
       bytes = ingest_usage.bytes + EXCLUDED.bytes,
       requests = ingest_usage.requests + EXCLUDED.requests,
       skipped_records = ingest_usage.skipped_records + EXCLUDED.skipped_records`,
    [
      JSON.stringify(
        records.map((record) => ({
          project_id: record.projectId,
          month: record.month,
          organization_id: record.organizationId,
          bytes: record.bytes,
          requests: record.requests,
          skipped_records: record.skippedRecords,
        })),
      ),
    ],
  );
}

/** Decompressed bytes an organization's projects sent in a month (`YYYY-MM-01`). */
export async function organizationIngestBytes(db: MetaTx, organizationId: string, month: string): Promise<number> {
  const [row] = await db.query<{ bytes: string | number | null }>(
    'SELECT sum(bytes) AS bytes FROM ingest_usage WHERE organization_id = $1 AND month = $2',
    [organizationId, month],
  );
  return Number(row?.bytes ?? 0);
}

/** A project's usage in a month, or null when it sent nothing. */
export async function projectIngestUsage(
  db: MetaTx,
  projectId: string,
  month: string,
): Promise<{ bytes: number; requests: number; skippedRecords: number } | null> {
  const [row] = await db.query<{ bytes: string; requests: string; skipped_records: string }>(
    'SELECT bytes, requests, skipped_records FROM ingest_usage WHERE project_id = $1 AND month = $2',
    [projectId, month],
  );
  return row
    ? { bytes: Number(row.bytes), requests: Number(row.requests), skippedRecords: Number(row.skipped_records) }
    : null;
}

/** Organizations with recorded ingest in a month (`YYYY-MM-01`). */
export async function organizationsWithIngest(db: MetaTx, month: string): Promise<string[]> {
  const rows = await db.query<{ organization_id: string }>(
    'SELECT DISTINCT organization_id FROM ingest_usage WHERE month = $1 AND bytes > 0',
    [month],
  );
  return rows.map((row) => row.organization_id);
}

/** Whether the project ever had data stored (its usage rows are kept whatever the plan). */
export async function projectEverIngested(db: MetaTx, projectId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM ingest_usage WHERE project_id = $1 AND bytes > 0 LIMIT 1', [projectId]);
  return rows.length > 0;
}
