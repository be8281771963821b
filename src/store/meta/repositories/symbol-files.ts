/** Uploaded debug-symbol files and the upload-token lookup of the symbol upload route. */
import type { MetaTx } from '../types.js';

export type SymbolFileKind = 'dart' | 'ios' | 'proguard';

export interface UploadProject {
  id: string;
  organizationId: string;
  suspended: boolean;
}

export interface SymbolFile {
  projectId: string;
  kind: SymbolFileKind;
  buildId: string;
  arch: string;
  objectKey: string;
  size: number;
  contentSha256: string;
}

export async function findProjectByUploadToken(db: MetaTx, uploadToken: string): Promise<UploadProject | null> {
  const rows = await db.query<{ id: string; organization_id: string; suspended: boolean }>(
    `SELECT p.id, p.organization_id, o.suspended_at IS NOT NULL AS suspended
       FROM projects p JOIN organizations o ON o.id = p.organization_id
      WHERE p.upload_token = $1`,
    [uploadToken],
  );
  const row = rows[0];
  return row ? { id: row.id, organizationId: row.organization_id, suspended: row.suspended } : null;
}

/** Re-uploading the same build replaces the record: keys are content-addressed by build id. */
export async function upsertSymbolFile(db: MetaTx, file: SymbolFile): Promise<void> {
  await db.query(
    `INSERT INTO symbol_files (project_id, kind, build_id, arch, object_key, size, content_sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (project_id, kind, build_id, arch)
     DO UPDATE SET object_key = EXCLUDED.object_key, size = EXCLUDED.size,
                   content_sha256 = EXCLUDED.content_sha256, uploaded_at = now()`,
    [file.projectId, file.kind, file.buildId, file.arch, file.objectKey, file.size, file.contentSha256],
  );
}

export async function findSymbolFile(db: MetaTx, projectId: string, kind: SymbolFileKind, buildId: string, arch: string): Promise<SymbolFile | null> {
  const rows = await db.query<{ object_key: string; size: number; content_sha256: string }>(
    `SELECT object_key, size, content_sha256 FROM symbol_files WHERE project_id = $1 AND kind = $2 AND build_id = $3 AND arch = $4`,
    [projectId, kind, buildId, arch],
  );
  const row = rows[0];
  return row ? { projectId, kind, buildId, arch, objectKey: row.object_key, size: row.size, contentSha256: row.content_sha256 } : null;
}
