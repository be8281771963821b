/** Projects and the ingest-token lookup behind the project cache. */
import { PLAN_GRANTING_STATUSES } from '../../../core/plans.js';
import type { Role } from '../../../core/roles.js';
import { newIngestToken, newSourceMapToken, newUploadToken } from '../../../core/tokens.js';
import type { IngestProject } from '../../../core/projects.js';
import type { MetaTx } from '../types.js';
import { planCodeOf } from './billing.js';

export interface Project {
  id: string;
  organizationId: string;
  name: string;
  framework: string;
  backendUrl: string;
  token: string;
  uploadToken: string;
  sourceMapToken: string;
  createdAt: Date;
}

interface ProjectRow {
  id: string;
  organization_id: string;
  name: string;
  framework: string;
  backend_url: string;
  token: string;
  upload_token: string;
  source_map_token: string;
  created_at: Date;
}

const COLUMNS = 'id, organization_id, name, framework, backend_url, token, upload_token, source_map_token, created_at';
const P_COLUMNS =
  'p.id, p.organization_id, p.name, p.framework, p.backend_url, p.token, p.upload_token, p.source_map_token, p.created_at';

const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  framework: row.framework,
  backendUrl: row.backend_url,
  token: row.token,
  uploadToken: row.upload_token,
  sourceMapToken: row.source_map_token,
  createdAt: row.created_at,
});

export async function insertProject(
  db: MetaTx,
  project: { organizationId: string; name: string; framework: string },
): Promise<Project> {
  const rows = await db.query<ProjectRow>(
    `INSERT INTO projects (organization_id, name, framework, token, upload_token, source_map_token)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [project.organizationId, project.name, project.framework, newIngestToken(), newUploadToken(), newSourceMapToken()],
  );
  return toProject(rows[0]!);
}

export async function findIngestProject(db: MetaTx, token: string): Promise<IngestProject | null> {
  const rows = await db.query<{ id: string; organization_id: string; framework: string; suspended: boolean }>(
    `SELECT p.id, p.organization_id, p.framework, o.suspended_at IS NOT NULL AS suspended
       FROM projects p JOIN organizations o ON o.id = p.organization_id
      WHERE p.token = $1`,
    [token],
  );
  const row = rows[0];
  return row
    ? { id: row.id, organizationId: row.organization_id, framework: row.framework, suspended: row.suspended }
    : null;
}

/** What authorizing a caller on a project needs: its organization, the caller's roles there, and suspension. */
export interface ProjectAccess {
  organizationId: string;
  /** Null when the caller is not a member of the project's organization. */
  organizationRole: Role | null;
  overrideRole: Role | null;
  suspended: boolean;
  /** Days of telemetry the organization's plan keeps (hot + warm, as the retention job reads them). */
  retentionDays: number;
}

/** The caller's access to a project, and what its organization's plan (`defaultPlan` without a subscription) keeps. */
export async function findProjectAccess(
  db: MetaTx,
  projectId: string,
  userId: string,
  defaultPlan: string,
): Promise<ProjectAccess | null> {
  const rows = await db.query<{
    organization_id: string;
    organization_role: Role | null;
    override_role: Role | null;
    suspended: boolean;
    retention_days: number;
  }>(
    `SELECT p.organization_id, m.role AS organization_role, r.role AS override_role, o.suspended_at IS NOT NULL AS suspended,
            pl.retention_days_hot + pl.retention_days_warm AS retention_days
       FROM projects p
       JOIN organizations o ON o.id = p.organization_id
       JOIN plans pl ON pl.code = ${planCodeOf('p.organization_id', '$3', '$4')}
       LEFT JOIN memberships m ON m.organization_id = p.organization_id AND m.user_id = $2
       LEFT JOIN project_role_overrides r ON r.project_id = p.id AND r.user_id = $2
      WHERE p.id = $1`,
    [projectId, userId, defaultPlan, [...PLAN_GRANTING_STATUSES]],
  );
  const row = rows[0];
  return row
    ? {
        organizationId: row.organization_id,
        organizationRole: row.organization_role,
        overrideRole: row.override_role,
        suspended: row.suspended,
        retentionDays: Number(row.retention_days),
      }
    : null;
}

/**
 * Every project of the user's organizations that are not suspended, with the two roles that
 * decide theirs and the days its organization's plan (`defaultPlan` without a subscription) keeps.
 */
export async function listProjectsOfUser(
  db: MetaTx,
  userId: string,
  defaultPlan: string,
): Promise<Array<{ project: Project; organizationRole: Role; overrideRole: Role | null; retentionDays: number }>> {
  const rows = await db.query<
    ProjectRow & { organization_role: Role; override_role: Role | null; retention_days: number }
  >(
    `SELECT ${P_COLUMNS}, m.role AS organization_role, r.role AS override_role,
            pl.retention_days_hot + pl.retention_days_warm AS retention_days
       FROM projects p
       JOIN memberships m ON m.organization_id = p.organization_id AND m.user_id = $1
       JOIN organizations o ON o.id = p.organization_id AND o.suspended_at IS NULL
       JOIN plans pl ON pl.code = ${planCodeOf('p.organization_id', '$2', '$3')}
       LEFT JOIN project_role_overrides r ON r.project_id = p.id AND r.user_id = $1
      ORDER BY p.created_at, p.id`,
    [userId, defaultPlan, [...PLAN_GRANTING_STATUSES]],
  );
  return rows.map((row) => ({
    project: toProject(row),
    organizationRole: row.organization_role,
    overrideRole: row.override_role,
    retentionDays: Number(row.retention_days),
  }));
}

export async function findProject(db: MetaTx, id: string): Promise<Project | null> {
  const rows = await db.query<ProjectRow>(`SELECT ${COLUMNS} FROM projects WHERE id = $1`, [id]);
  return rows[0] ? toProject(rows[0]) : null;
}

export async function countProjects(db: MetaTx, organizationId: string): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE organization_id = $1', [
    organizationId,
  ]);
  return rows[0]?.n ?? 0;
}

export async function listProjectIds(db: MetaTx, organizationId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM projects WHERE organization_id = $1', [organizationId]);
  return rows.map((row) => row.id);
}

/** Changes the given fields; the others keep their values. */
export async function updateProject(
  db: MetaTx,
  id: string,
  changes: { name?: string; framework?: string; backendUrl?: string },
  now: Date,
): Promise<Project | null> {
  const rows = await db.query<ProjectRow>(
    `UPDATE projects
        SET name = COALESCE($2, name), framework = COALESCE($3, framework), backend_url = COALESCE($4, backend_url), updated_at = $5
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, changes.name ?? null, changes.framework ?? null, changes.backendUrl ?? null, now],
  );
  return rows[0] ? toProject(rows[0]) : null;
}

/**
 * Deletes the project and, in the same statement, schedules the purge of its telemetry and
 * stored objects (project_purges; the purge job does it).
 */
export async function deleteProject(db: MetaTx, id: string, now: Date): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `WITH deleted AS (DELETE FROM projects WHERE id = $1 RETURNING id),
          purge AS (INSERT INTO project_purges (project_id, requested_at) SELECT id, $2 FROM deleted ON CONFLICT (project_id) DO NOTHING)
     SELECT id FROM deleted`,
    [id, now],
  );
  return rows.length > 0;
}

/** Replaces the ingest token; the previous one matches nothing from this statement on (the project cache aside). */
export async function rotateIngestToken(db: MetaTx, id: string, now: Date): Promise<string | null> {
  const rows = await db.query<{ token: string }>(
    'UPDATE projects SET token = $2, updated_at = $3 WHERE id = $1 RETURNING token',
    [id, newIngestToken(), now],
  );
  return rows[0]?.token ?? null;
}

/** Replaces the source-map upload token; the previous one matches nothing from this statement on. */
export async function rotateSourceMapToken(db: MetaTx, id: string, now: Date): Promise<string | null> {
  const rows = await db.query<{ source_map_token: string }>(
    'UPDATE projects SET source_map_token = $2, updated_at = $3 WHERE id = $1 RETURNING source_map_token',
    [id, newSourceMapToken(), now],
  );
  return rows[0]?.source_map_token ?? null;
}

/** Replaces the symbol upload token; the previous one matches nothing from this statement on. */
export async function rotateUploadToken(db: MetaTx, id: string, now: Date): Promise<string | null> {
  const rows = await db.query<{ upload_token: string }>(
    'UPDATE projects SET upload_token = $2, updated_at = $3 WHERE id = $1 RETURNING upload_token',
    [id, newUploadToken(), now],
  );
  return rows[0]?.upload_token ?? null;
}
