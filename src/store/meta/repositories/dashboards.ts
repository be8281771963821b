/** Saved dashboards of a project: every statement is scoped by the authorized project id. */
import type { MetaTx } from '../types.js';

export interface Dashboard {
  id: string;
  projectId: string;
  name: string;
  definition: Record<string, unknown>;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface DashboardRow {
  id: string;
  project_id: string;
  name: string;
  definition: Record<string, unknown>;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Most saved dashboards one project holds (the list answers them all). */
export const MAX_DASHBOARDS_PER_PROJECT = 500;

const COLUMNS = 'id, project_id, name, definition, created_by, created_at, updated_at';

const toDashboard = (row: DashboardRow): Dashboard => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  definition: row.definition,
  createdBy: row.created_by,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** At most `limit` dashboards of the project, by name. */
export async function listDashboards(
  db: MetaTx,
  projectId: string,
  limit = MAX_DASHBOARDS_PER_PROJECT,
): Promise<Dashboard[]> {
  const rows = await db.query<DashboardRow>(
    `SELECT ${COLUMNS} FROM dashboards WHERE project_id = $1 ORDER BY name, id LIMIT $2`,
    [projectId, limit],
  );
  return rows.map(toDashboard);
}

export async function findDashboard(db: MetaTx, projectId: string, id: string): Promise<Dashboard | null> {
  const rows = await db.query<DashboardRow>(`SELECT ${COLUMNS} FROM dashboards WHERE project_id = $1 AND id = $2`, [
    projectId,
    id,
  ]);
  return rows[0] ? toDashboard(rows[0]) : null;
}

/**
 * Saves a dashboard, or answers null when the project holds MAX_DASHBOARDS_PER_PROJECT already.
 * Run it in a transaction: the project row stays locked until the end, so concurrent creations
 * count one after the other (NO KEY UPDATE leaves other rows referencing the project unblocked).
 */
export async function insertDashboard(
  tx: MetaTx,
  input: { projectId: string; name: string; definition: Record<string, unknown>; createdBy: string },
): Promise<Dashboard | null> {
  await tx.query('SELECT id FROM projects WHERE id = $1 FOR NO KEY UPDATE', [input.projectId]);
  const [held] = await tx.query<{ n: number }>('SELECT count(*) AS n FROM dashboards WHERE project_id = $1', [
    input.projectId,
  ]);
  if ((held?.n ?? 0) >= MAX_DASHBOARDS_PER_PROJECT) return null;
  const rows = await tx.query<DashboardRow>(
    `INSERT INTO dashboards (project_id, name, definition, created_by) VALUES ($1, $2, $3::jsonb, $4) RETURNING ${COLUMNS}`,
    [input.projectId, input.name, JSON.stringify(input.definition), input.createdBy],
  );
  return toDashboard(rows[0]!);
}

export async function updateDashboard(
  db: MetaTx,
  projectId: string,
  id: string,
  change: { name?: string | undefined; definition?: Record<string, unknown> | undefined },
): Promise<Dashboard | null> {
  const rows = await db.query<DashboardRow>(
    `UPDATE dashboards SET name = COALESCE($3, name), definition = COALESCE($4::jsonb, definition), updated_at = now()
      WHERE project_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [projectId, id, change.name ?? null, change.definition === undefined ? null : JSON.stringify(change.definition)],
  );
  return rows[0] ? toDashboard(rows[0]) : null;
}

export async function deleteDashboard(db: MetaTx, projectId: string, id: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('DELETE FROM dashboards WHERE project_id = $1 AND id = $2 RETURNING id', [
    projectId,
    id,
  ]);
  return rows.length > 0;
}
