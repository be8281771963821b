/** Projects and the ingest-token lookup behind the project cache. */
import { newIngestToken, newSourceMapToken, newUploadToken } from '../../../core/tokens.js';
import type { IngestProject } from '../../../ingest/project-cache.js';
import type { MetaTx } from '../types.js';

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

export async function insertProject(db: MetaTx, project: { organizationId: string; name: string; framework: string }): Promise<Project> {
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
  return row ? { id: row.id, organizationId: row.organization_id, framework: row.framework, suspended: row.suspended } : null;
}
