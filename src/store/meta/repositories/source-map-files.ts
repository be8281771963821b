/** Uploaded JavaScript source maps. */
import type { MetaTx } from '../types.js';

export interface SourceMapFile {
  projectId: string;
  release: string;
  /** Served path of the generated file: `/assets/main.4f3a.js`. */
  path: string;
  /** 32 lowercase hex, or ''. */
  debugId: string;
  objectKey: string;
  size: number;
  contentSha256: string;
}

/** Re-uploading a release's file replaces its record. */
export async function upsertSourceMapFile(db: MetaTx, file: SourceMapFile): Promise<void> {
  await db.query(
    `INSERT INTO source_map_files (project_id, release, path, debug_id, object_key, size, content_sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (project_id, release, path)
     DO UPDATE SET debug_id = EXCLUDED.debug_id, object_key = EXCLUDED.object_key, size = EXCLUDED.size,
                   content_sha256 = EXCLUDED.content_sha256, uploaded_at = now()`,
    [file.projectId, file.release, file.path, file.debugId, file.objectKey, file.size, file.contentSha256],
  );
}

/** A script a trace names: by its release and served path, or by its debug id. */
export interface SourceMapWanted {
  release: string;
  path: string;
  debugId: string;
}

/**
 * The project's maps for the scripts of a request, in one query: rows matching a (release, path)
 * pair or a debug id, newest first (a debug id uploaded twice resolves to the latest upload).
 */
export async function findSourceMapFiles(
  db: MetaTx,
  projectId: string,
  wanted: readonly SourceMapWanted[],
): Promise<SourceMapFile[]> {
  const pairs = wanted.filter((w) => w.release !== '');
  const debugIds = [...new Set(wanted.map((w) => w.debugId).filter((id) => id !== ''))];
  if (pairs.length === 0 && debugIds.length === 0) return [];
  const rows = await db.query<{
    release: string;
    path: string;
    debug_id: string;
    object_key: string;
    size: number;
    content_sha256: string;
  }>(
    `SELECT release, path, debug_id, object_key, size, content_sha256 FROM source_map_files
      WHERE project_id = $1
        AND ((release, path) IN (SELECT * FROM unnest($2::text[], $3::text[])) OR (debug_id <> '' AND debug_id = ANY($4::text[])))
      ORDER BY uploaded_at DESC`,
    [projectId, pairs.map((w) => w.release), pairs.map((w) => w.path), debugIds],
  );
  return rows.map((row) => ({
    projectId,
    release: row.release,
    path: row.path,
    debugId: row.debug_id,
    objectKey: row.object_key,
    size: Number(row.size),
    contentSha256: row.content_sha256,
  }));
}
