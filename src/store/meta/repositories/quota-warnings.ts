/** Ingest-quota warnings sent (migration 0012). */
import type { MetaTx } from '../types.js';

/** The thresholds already warned about in a month. */
export async function sentQuotaWarnings(db: MetaTx, organizationId: string, month: string): Promise<number[]> {
  const rows = await db.query<{ percent: number }>(
    'SELECT percent FROM quota_warnings WHERE organization_id = $1 AND month = $2',
    [organizationId, month],
  );
  return rows.map((row) => row.percent);
}

/**
 * Claims the warnings of `percents` for the month: the ones this call recorded (its caller sends
 * the mail when there is any), none when another run already had them all.
 */
export async function claimQuotaWarnings(
  db: MetaTx,
  organizationId: string,
  month: string,
  percents: readonly number[],
  now: Date,
): Promise<number[]> {
  if (percents.length === 0) return [];
  const rows = await db.query<{ percent: number }>(
    `INSERT INTO quota_warnings (organization_id, month, percent, sent_at)
     SELECT $1, $2, percent, $4 FROM unnest($3::int[]) AS percent
     ON CONFLICT DO NOTHING
     RETURNING percent`,
    [organizationId, month, percents, now],
  );
  return rows.map((row) => row.percent);
}

/** Gives claimed warnings back (their mail did not go out), so the next run claims and sends them again. */
export async function releaseQuotaWarnings(
  db: MetaTx,
  organizationId: string,
  month: string,
  percents: readonly number[],
): Promise<void> {
  await db.query('DELETE FROM quota_warnings WHERE organization_id = $1 AND month = $2 AND percent = ANY($3::int[])', [
    organizationId,
    month,
    percents,
  ]);
}
