/** Deleted projects whose data the purge job has still to remove (migration 0004). */
import type { MetaTx } from '../types.js';

export interface ProjectPurge {
  projectId: string;
  requestedAt: Date;
  attempts: number;
}

/** The oldest purges not done yet that were requested before `requestedBefore`. */
export async function pendingPurges(db: MetaTx, requestedBefore: Date, limit: number): Promise<ProjectPurge[]> {
  const rows = await db.query<{ project_id: string; requested_at: Date; attempts: number }>(
    'SELECT project_id, requested_at, attempts FROM project_purges WHERE requested_at < $1 ORDER BY requested_at, project_id LIMIT $2',
    [requestedBefore, limit],
  );
  return rows.map((row) => ({
    projectId: row.project_id,
    requestedAt: new Date(row.requested_at),
    attempts: Number(row.attempts),
  }));
}

/** The project's data is gone. */
export async function finishPurge(db: MetaTx, projectId: string): Promise<void> {
  await db.query('DELETE FROM project_purges WHERE project_id = $1', [projectId]);
}

/** A purge failed: it stays pending, with the failure, for the next run. */
export async function recordPurgeFailure(db: MetaTx, projectId: string, error: string): Promise<void> {
  await db.query('UPDATE project_purges SET attempts = attempts + 1, last_error = $2 WHERE project_id = $1', [
    projectId,
    error.slice(0, 2000),
  ]);
}
