/** Uploaded debug-symbol files. */
import type { MetaTx } from '../types.js';

export type SymbolFileKind = 'dart' | 'ios' | 'proguard';

export interface SymbolFile {
  projectId: string;
  kind: SymbolFileKind;
  buildId: string;
  arch: string;
  objectKey: string;
  size: number;
  contentSha256: string;
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

export interface SymbolBuild {
  kind: SymbolFileKind;
  buildId: string;
  arch: string;
}

/** The symbol files of a project's builds that were uploaded, in one query however many builds are asked for. */
export async function findSymbolFiles(
  db: MetaTx,
  projectId: string,
  builds: readonly SymbolBuild[],
): Promise<SymbolFile[]> {
  if (builds.length === 0) return [];
  const rows = await db.query<{
    kind: SymbolFileKind;
    build_id: string;
    arch: string;
    object_key: string;
    size: number;
    content_sha256: string;
  }>(
    `SELECT kind, build_id, arch, object_key, size, content_sha256 FROM symbol_files
      WHERE project_id = $1 AND (kind, build_id, arch) IN (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]))`,
    [
      projectId,
      builds.map((build) => build.kind),
      builds.map((build) => build.buildId),
      builds.map((build) => build.arch),
    ],
  );
  return rows.map((row) => ({
    projectId,
    kind: row.kind,
    buildId: row.build_id,
    arch: row.arch,
    objectKey: row.object_key,
    size: row.size,
    contentSha256: row.content_sha256,
  }));
}

/**
 * Binds an app version to a project's mapping file: the version leaves whichever mapping had it,
 * so one upload per version wins (the latest).
 */
export async function bindMappingVersion(
  db: MetaTx,
  projectId: string,
  buildId: string,
  appVersion: string,
): Promise<void> {
  await db.query(
    `UPDATE symbol_files SET app_version = NULL WHERE project_id = $1 AND app_version = $2 AND build_id <> $3`,
    [projectId, appVersion, buildId],
  );
  await db.query(
    `UPDATE symbol_files SET app_version = $3 WHERE project_id = $1 AND kind = 'proguard' AND build_id = $2 AND arch = ''`,
    [projectId, buildId, appVersion],
  );
}

export interface MappingMatch {
  buildId: string;
  appVersion: string | null;
}

/**
 * A project's mapping files named by R8 map ids (a map id matches the mapping whose id starts
 * with it: R8 writes the first 7 hex digits of the mapping's hash by default, Android builds the
 * whole hash) or by app versions, newest first. `mapIds` must be lowercase hex.
 */
export async function findMappings(
  db: MetaTx,
  projectId: string,
  mapIds: readonly string[],
  appVersions: readonly string[],
): Promise<MappingMatch[]> {
  if (mapIds.length === 0 && appVersions.length === 0) return [];
  const rows = await db.query<{ build_id: string; app_version: string | null }>(
    `SELECT build_id, app_version FROM symbol_files
      WHERE project_id = $1 AND kind = 'proguard' AND arch = ''
        AND (app_version = ANY($3::text[]) OR EXISTS (SELECT 1 FROM unnest($2::text[]) AS id WHERE starts_with(build_id, id)))
      ORDER BY uploaded_at DESC
      LIMIT 1000`,
    [projectId, mapIds.filter((id) => /^[0-9a-f]{7,128}$/.test(id)), [...appVersions]],
  );
  return rows.map((row) => ({ buildId: row.build_id, appVersion: row.app_version }));
}
