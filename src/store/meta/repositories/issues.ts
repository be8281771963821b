/**
 * Issue states and their activity. Every statement is scoped by the authorized (or ingesting)
 * project id. Bulk statements take their rows as one jsonb array (jsonb_to_recordset), so a
 * batch of hashes costs one statement however many there are.
 */
import {
  transitionOf,
  type IssueObservation,
  type IssueState,
  type IssueStatus,
  type IssueTransition,
  type StatusChange,
} from '../../../core/issues.js';
import type { MetaDb, MetaTx } from '../types.js';

interface StateRow {
  hash: string;
  status: IssueStatus;
  resolved_in_version: string | null;
  ignored_until: Date | null;
  ignore_limit: number | null;
  ignored_count: number;
  first_seen_at: Date;
  regressed_at: Date | null;
  regressed_version: string | null;
  status_changed_at: Date;
  status_changed_by: string | null;
}

export interface StoredIssueState extends IssueState {
  firstSeenAt: Date;
  regressedVersion: string | null;
  statusChangedAt: Date;
  statusChangedBy: string | null;
}

const COLUMNS =
  'hash, status, resolved_in_version, ignored_until, ignore_limit, ignored_count, first_seen_at, regressed_at, regressed_version, status_changed_at, status_changed_by';

const toState = (row: StateRow): StoredIssueState => ({
  hash: row.hash,
  status: row.status,
  resolvedInVersion: row.resolved_in_version,
  ignoredUntil: row.ignored_until,
  ignoreLimit: row.ignore_limit === null ? null : Number(row.ignore_limit),
  ignoredCount: Number(row.ignored_count),
  regressedAt: row.regressed_at,
  firstSeenAt: row.first_seen_at,
  regressedVersion: row.regressed_version,
  statusChangedAt: row.status_changed_at,
  statusChangedBy: row.status_changed_by,
});

/** States of the given hashes, with the name of whoever changed each last. */
export async function findIssueStates(
  db: MetaTx,
  projectId: string,
  hashes: readonly string[],
): Promise<Map<string, StoredIssueState & { statusChangedByName: string | null }>> {
  if (hashes.length === 0) return new Map();
  const rows = await db.query<StateRow & { changed_by_name: string | null }>(
    `SELECT ${COLUMNS.split(', ')
      .map((column) => `s.${column}`)
      .join(', ')}, u.name AS changed_by_name
       FROM issue_states s LEFT JOIN users u ON u.id = s.status_changed_by
      WHERE s.project_id = $1 AND s.hash = ANY($2::text[])`,
    [projectId, [...hashes]],
  );
  return new Map(rows.map((row) => [row.hash, { ...toState(row), statusChangedByName: row.changed_by_name }]));
}

/** Hashes of the project's issues in one of `statuses`, at most `limit` of them (most recently changed first). */
export async function hashesWithStatus(
  db: MetaTx,
  projectId: string,
  statuses: readonly IssueStatus[],
  limit: number,
): Promise<string[]> {
  const rows = await db.query<{ hash: string }>(
    'SELECT hash FROM issue_states WHERE project_id = $1 AND status = ANY($2::text[]) ORDER BY status_changed_at DESC LIMIT $3',
    [projectId, [...statuses], limit],
  );
  return rows.map((row) => row.hash);
}

interface ActivityInput {
  hash: string;
  at: string;
  kind: 'new' | 'status' | 'regressed' | 'reopened';
  from_status: string | null;
  to_status: string;
  user_id: string | null;
  detail: Record<string, unknown>;
}

async function recordActivity(tx: MetaTx, projectId: string, rows: readonly ActivityInput[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO issue_activity (project_id, hash, at, kind, from_status, to_status, user_id, detail)
     SELECT $1, r.hash, r.at, r.kind, r.from_status, r.to_status, r.user_id, coalesce(r.detail, '{}')
       FROM jsonb_to_recordset($2::jsonb) AS r(hash text, at timestamptz, kind text, from_status text, to_status text, user_id uuid, detail jsonb)`,
    [projectId, JSON.stringify(rows)],
  );
}

/**
 * Applies one ingest batch's observations: registers new issues, regresses resolved ones,
 * reopens ignored ones past their condition, counts occurrences of ignored ones. Locks the
 * issues' rows for the transaction, so two processes ingesting the same hash agree (a new issue
 * is reported by whichever inserts its row). Answers what changed (never 'counted') and which of
 * the observed hashes are open afterwards (ingest caches those and skips them next time).
 */
export async function observeIssues(
  db: MetaDb,
  projectId: string,
  observations: readonly IssueObservation[],
): Promise<{ transitions: IssueTransition[]; open: string[] }> {
  if (observations.length === 0) return { transitions: [], open: [] };
  return db.transaction(async (tx) => {
    const hashes = observations.map((seen) => seen.hash);
    const locked = await tx.query<StateRow>(
      `SELECT ${COLUMNS} FROM issue_states WHERE project_id = $1 AND hash = ANY($2::text[]) FOR UPDATE`,
      [projectId, hashes],
    );
    const states = new Map(locked.map((row) => [row.hash, toState(row)]));
    const transitions = observations
      .map((seen) => transitionOf(states.get(seen.hash) ?? null, seen))
      .filter((t): t is IssueTransition => t !== null);
    const fresh = transitions.filter((t) => t.kind === 'new');
    let inserted = new Set<string>();
    if (fresh.length > 0) {
      const rows = await tx.query<{ hash: string }>(
        `INSERT INTO issue_states (project_id, hash, first_seen_at, status_changed_at)
         SELECT $1, r.hash, r.at, r.at FROM jsonb_to_recordset($2::jsonb) AS r(hash text, at timestamptz)
         ON CONFLICT (project_id, hash) DO NOTHING RETURNING hash`,
        [projectId, JSON.stringify(fresh.map((t) => ({ hash: t.hash, at: t.at.toISOString() })))],
      );
      inserted = new Set(rows.map((row) => row.hash));
    }
    const changes = transitions.filter((t) => t.kind !== 'new');
    if (changes.length > 0) {
      await tx.query(
        `UPDATE issue_states s SET
            status = CASE WHEN r.kind = 'counted' THEN s.status ELSE 'open' END,
            ignored_count = CASE WHEN r.kind = 'counted' THEN s.ignored_count + r.add ELSE 0 END,
            resolved_in_version = CASE WHEN r.kind = 'counted' THEN s.resolved_in_version ELSE NULL END,
            ignored_until = CASE WHEN r.kind = 'counted' THEN s.ignored_until ELSE NULL END,
            ignore_limit = CASE WHEN r.kind = 'counted' THEN s.ignore_limit ELSE NULL END,
            regressed_at = CASE WHEN r.kind = 'regressed' THEN r.at ELSE s.regressed_at END,
            regressed_version = CASE WHEN r.kind = 'regressed' THEN r.version ELSE s.regressed_version END,
            status_changed_at = CASE WHEN r.kind = 'counted' THEN s.status_changed_at ELSE r.at END,
            status_changed_by = CASE WHEN r.kind = 'counted' THEN s.status_changed_by ELSE NULL END
           FROM jsonb_to_recordset($2::jsonb) AS r(hash text, kind text, at timestamptz, version text, add bigint)
          WHERE s.project_id = $1 AND s.hash = r.hash`,
        [
          projectId,
          JSON.stringify(
            changes.map((t) =>
              t.kind === 'counted'
                ? { hash: t.hash, kind: t.kind, at: null, version: null, add: t.add }
                : {
                    hash: t.hash,
                    kind: t.kind,
                    at: t.at.toISOString(),
                    version: t.kind === 'regressed' ? t.version : null,
                    add: 0,
                  },
            ),
          ),
        ],
      );
    }
    const reported = transitions.filter((t) => (t.kind === 'new' ? inserted.has(t.hash) : t.kind !== 'counted'));
    await recordActivity(
      tx,
      projectId,
      reported.map((t): ActivityInput => {
        if (t.kind === 'new')
          return {
            hash: t.hash,
            at: t.at.toISOString(),
            kind: 'new',
            from_status: null,
            to_status: 'open',
            user_id: null,
            detail: {},
          };
        if (t.kind === 'regressed')
          return {
            hash: t.hash,
            at: t.at.toISOString(),
            kind: 'regressed',
            from_status: 'resolved',
            to_status: 'open',
            user_id: null,
            detail: { version: t.version },
          };
        if (t.kind === 'reopened')
          return {
            hash: t.hash,
            at: t.at.toISOString(),
            kind: 'reopened',
            from_status: 'ignored',
            to_status: 'open',
            user_id: null,
            detail: { reason: t.reason },
          };
        throw new Error('unreachable');
      }),
    );
    const reopened = new Set(transitions.filter((t) => t.kind !== 'counted').map((t) => t.hash));
    const open = hashes.filter((hash) => reopened.has(hash) || states.get(hash)?.status === 'open');
    return { transitions: reported, open };
  });
}

/**
 * Sets the status of issues (one or many hashes) as a person asked; an issue ingest has not
 * registered yet gets its row now. Every change is recorded in the activity list. `versions`
 * holds, per hash, the app version current when resolving "in the next version" without an
 * explicit version.
 */
export async function setIssueStatus(
  tx: MetaTx,
  projectId: string,
  hashes: readonly string[],
  change: StatusChange,
  userId: string,
  now: Date,
  versions: ReadonlyMap<string, string | null>,
): Promise<StoredIssueState[]> {
  const before = await tx.query<{ hash: string; status: string }>(
    'SELECT hash, status FROM issue_states WHERE project_id = $1 AND hash = ANY($2::text[]) FOR UPDATE',
    [projectId, [...hashes]],
  );
  const previous = new Map(before.map((row) => [row.hash, row.status]));
  const rows = hashes.map((hash) => ({
    hash,
    resolved_in_version:
      change.status === 'resolved' && change.inNextVersion ? (change.version ?? versions.get(hash) ?? null) : null,
    ignored_until: change.status === 'ignored' ? (change.until?.toISOString() ?? null) : null,
    ignore_limit: change.status === 'ignored' ? (change.occurrences ?? null) : null,
  }));
  const updated = await tx.query<StateRow>(
    `INSERT INTO issue_states (project_id, hash, status, resolved_in_version, ignored_until, ignore_limit, ignored_count, first_seen_at, status_changed_at, status_changed_by)
     SELECT $1, r.hash, $3, r.resolved_in_version, r.ignored_until, r.ignore_limit, 0, $4, $4, $5
       FROM jsonb_to_recordset($2::jsonb) AS r(hash text, resolved_in_version text, ignored_until timestamptz, ignore_limit bigint)
     ON CONFLICT (project_id, hash) DO UPDATE SET
       status = EXCLUDED.status, resolved_in_version = EXCLUDED.resolved_in_version, ignored_until = EXCLUDED.ignored_until,
       ignore_limit = EXCLUDED.ignore_limit, ignored_count = 0, status_changed_at = EXCLUDED.status_changed_at,
       status_changed_by = EXCLUDED.status_changed_by
     RETURNING ${COLUMNS}`,
    [projectId, JSON.stringify(rows), change.status, now, userId],
  );
  await recordActivity(
    tx,
    projectId,
    rows.map((row) => ({
      hash: row.hash,
      at: now.toISOString(),
      kind: 'status',
      from_status: previous.get(row.hash) ?? 'open',
      to_status: change.status,
      user_id: userId,
      detail: Object.fromEntries(
        Object.entries({
          resolvedInVersion: row.resolved_in_version,
          ignoredUntil: row.ignored_until,
          ignoreOccurrences: row.ignore_limit,
        }).filter(([, value]) => value !== null),
      ),
    })),
  );
  return updated.map(toState);
}

export interface IssueActivity {
  id: number;
  at: Date;
  kind: 'new' | 'status' | 'regressed' | 'reopened';
  fromStatus: string | null;
  toStatus: string;
  userId: string | null;
  userName: string | null;
  detail: Record<string, unknown>;
}

/** The issue's activity, newest first, at most `limit` entries. */
export async function issueActivity(
  db: MetaTx,
  projectId: string,
  hash: string,
  limit: number,
): Promise<IssueActivity[]> {
  const rows = await db.query<{
    id: number;
    at: Date;
    kind: IssueActivity['kind'];
    from_status: string | null;
    to_status: string;
    user_id: string | null;
    user_name: string | null;
    detail: Record<string, unknown>;
  }>(
    `SELECT a.id, a.at, a.kind, a.from_status, a.to_status, a.user_id, u.name AS user_name, a.detail
       FROM issue_activity a LEFT JOIN users u ON u.id = a.user_id
      WHERE a.project_id = $1 AND a.hash = $2 ORDER BY a.id DESC LIMIT $3`,
    [projectId, hash, limit],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    at: row.at,
    kind: row.kind,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    userId: row.user_id,
    userName: row.user_name,
    detail: row.detail,
  }));
}

export interface ActivitySignal {
  id: number;
  hash: string;
  at: Date;
  kind: 'new' | 'regressed';
  detail: Record<string, unknown>;
}

/** New-issue or regression entries of a project after `afterId`, oldest first (alert rules read them). */
export async function activityAfter(
  db: MetaTx,
  projectId: string,
  kind: 'new' | 'regressed',
  afterId: number,
  limit: number,
): Promise<ActivitySignal[]> {
  const rows = await db.query<{
    id: number;
    hash: string;
    at: Date;
    kind: 'new' | 'regressed';
    detail: Record<string, unknown>;
  }>(
    'SELECT id, hash, at, kind, detail FROM issue_activity WHERE project_id = $1 AND kind = $2 AND id > $3 ORDER BY id LIMIT $4',
    [projectId, kind, afterId, limit],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The latest activity id of a project (a new rule starts after it: it alerts on what comes next). */
export async function latestActivityId(db: MetaTx, projectId: string): Promise<number> {
  const [row] = await db.query<{ id: number | null }>(
    'SELECT max(id) AS id FROM issue_activity WHERE project_id = $1',
    [projectId],
  );
  return Number(row?.id ?? 0);
}
