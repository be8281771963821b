/**
 * Ingest-quota warnings (migrations 0012, 0016): a lease on each (organization, month, threshold)
 * while its mail goes out, and the admins each warning is for with their attempts.
 */
import type { MetaTx } from '../types.js';

/** One warning: an organization's threshold (percent of its quota) in a month (`YYYY-MM-01`). */
export interface QuotaWarningKey {
  organizationId: string;
  month: string;
  percent: number;
}

/**
 * Claims the warnings of `percents` for the month at `now`: each one never claimed, given back
 * for a retry, or claimed before `staleBefore` and never sent (the process holding it died).
 * Returns the ones this call took. Of two claims at once one gets the row: the second waits on
 * the first's row lock and re-checks the condition against the row the first wrote.
 */
export async function claimQuotaWarnings(
  db: MetaTx,
  organizationId: string,
  month: string,
  percents: readonly number[],
  now: Date,
  staleBefore: Date,
): Promise<number[]> {
  if (percents.length === 0) return [];
  const rows = await db.query<{ percent: number }>(
    `INSERT INTO quota_warnings (organization_id, month, percent, claimed_at)
     SELECT $1, $2, percent, $4 FROM unnest($3::int[]) AS percent
     ON CONFLICT (organization_id, month, percent) DO UPDATE SET claimed_at = excluded.claimed_at
       WHERE quota_warnings.sent_at IS NULL
         AND (quota_warnings.claimed_at IS NULL OR quota_warnings.claimed_at < $5)
     RETURNING percent`,
    [organizationId, month, percents, now, staleBefore],
  );
  return rows.map((row) => row.percent);
}

/** Marks warnings settled: no run claims them again. */
export async function markQuotaWarningsSent(
  db: MetaTx,
  organizationId: string,
  month: string,
  percents: readonly number[],
  sentAt: Date,
): Promise<void> {
  await db.query(
    `UPDATE quota_warnings SET sent_at = $4
      WHERE organization_id = $1 AND month = $2 AND percent = ANY($3::int[]) AND sent_at IS NULL`,
    [organizationId, month, percents, sentAt],
  );
}

/** Gives a claimed warning back unsent, so the next run claims it without waiting for the lease. */
export async function releaseQuotaWarning(db: MetaTx, warning: QuotaWarningKey): Promise<void> {
  await db.query(
    `UPDATE quota_warnings SET claimed_at = NULL
      WHERE organization_id = $1 AND month = $2 AND percent = $3 AND sent_at IS NULL`,
    [warning.organizationId, warning.month, warning.percent],
  );
}

/**
 * Records `userIds` as the warning's recipients unless an earlier claim recorded them, so a retry
 * goes to the admins of the first attempt and never to one who joined since.
 */
export async function fixQuotaWarningRecipients(
  db: MetaTx,
  warning: QuotaWarningKey,
  userIds: readonly string[],
): Promise<void> {
  if (userIds.length === 0) return;
  await db.query(
    `INSERT INTO quota_warning_recipients (organization_id, month, percent, user_id)
     SELECT $1, $2, $3, user_id FROM unnest($4::uuid[]) AS user_id
      WHERE NOT EXISTS (
        SELECT 1 FROM quota_warning_recipients WHERE organization_id = $1 AND month = $2 AND percent = $3)
     ON CONFLICT DO NOTHING`,
    [warning.organizationId, warning.month, warning.percent, userIds],
  );
}

/** The warning's recipients its mail has not reached yet and who have fewer than `maxAttempts` attempts. */
export async function pendingQuotaWarningRecipients(
  db: MetaTx,
  warning: QuotaWarningKey,
  maxAttempts: number,
): Promise<string[]> {
  const rows = await db.query<{ user_id: string }>(
    `SELECT user_id FROM quota_warning_recipients
      WHERE organization_id = $1 AND month = $2 AND percent = $3 AND delivered_at IS NULL AND attempts < $4`,
    [warning.organizationId, warning.month, warning.percent, maxAttempts],
  );
  return rows.map((row) => row.user_id);
}

/** Counts one attempt to mail a recipient, delivered at `deliveredAt` or refused (null); returns the attempts so far. */
export async function recordQuotaWarningAttempt(
  db: MetaTx,
  warning: QuotaWarningKey,
  userId: string,
  deliveredAt: Date | null,
): Promise<number> {
  const rows = await db.query<{ attempts: number }>(
    `UPDATE quota_warning_recipients SET attempts = attempts + 1, delivered_at = $5
      WHERE organization_id = $1 AND month = $2 AND percent = $3 AND user_id = $4
      RETURNING attempts`,
    [warning.organizationId, warning.month, warning.percent, userId, deliveredAt],
  );
  return rows[0]?.attempts ?? 0;
}
