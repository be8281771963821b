/** Ingest-quota warnings sent (migration 0012), and the organizations that ingested in a month. */
import type { MetaTx } from '../types.js';

/** Organizations with recorded ingest in a month (`YYYY-MM-01`). */
export async function organizationsWithIngest(db: MetaTx, month: string): Promise<string[]> {
  const rows = await db.query<{ organization_id: string }>(
    'SELECT DISTINCT organization_id FROM ingest_usage WHERE month = $1 AND bytes > 0',
    [month],
  );
  return rows.map((row) => row.organization_id);
}

/** The thresholds already warned about in a month. */
export async function sentQuotaWarnings(db: MetaTx, organizationId: string, month: string): Promise<number[]> {
  const rows = await db.query<{ percent: number }>(
    'SELECT percent FROM quota_warnings WHERE organization_id = $1 AND month = $2',
    [organizationId, month],
  );
  return rows.map((row) => row.percent);
}

/**
 * Claims the warnings of `percents` for the month: true when this call recorded at least one of
 * them (so its caller sends the mail), false when another run already had them all.
 */
export async function claimQuotaWarnings(
  db: MetaTx,
  organizationId: string,
  month: string,
  percents: readonly number[],
  now: Date,
): Promise<boolean> {
  if (percents.length === 0) return false;
  const rows = await db.query(
    `INSERT INTO quota_warnings (organization_id, month, percent, sent_at)
     SELECT $1, $2, percent, $4 FROM unnest($3::int[]) AS percent
     ON CONFLICT DO NOTHING
     RETURNING percent`,
    [organizationId, month, percents, now],
  );
  return rows.length > 0;
}
