/** The project an upload route's token belongs to: the symbol upload's and the source-map upload's lookup. */
import type { MetaTx } from '../types.js';

export interface UploadProject {
  id: string;
  organizationId: string;
  suspended: boolean;
}

/** Which of a project's upload credentials a route accepts; both are unique columns of `projects`. */
export type UploadTokenColumn = 'upload_token' | 'source_map_token';

/** The project whose token this is, by an exact match on its unique column, or null. */
export async function findProjectByUploadToken(
  db: MetaTx,
  column: UploadTokenColumn,
  token: string,
): Promise<UploadProject | null> {
  // The column comes from the closed union above, never from the request.
  const rows = await db.query<{ id: string; organization_id: string; suspended: boolean }>(
    `SELECT p.id, p.organization_id, o.suspended_at IS NOT NULL AS suspended
       FROM projects p JOIN organizations o ON o.id = p.organization_id
      WHERE p.${column} = $1`,
    [token],
  );
  const row = rows[0];
  return row ? { id: row.id, organizationId: row.organization_id, suspended: row.suspended } : null;
}
