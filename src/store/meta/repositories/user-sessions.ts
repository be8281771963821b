/**
 * Dashboard sessions and CLI password logins (meta migration 0013), one row per issued token by
 * its JWT id. A token of these kinds is valid only while its row exists: ending one deletes it.
 */
import type { MetaTx } from '../types.js';
import { type UserColumns, type User, toUser } from './users.js';

export type UserSessionKind = 'session' | 'cli';

export interface UserSession {
  tokenId: string;
  kind: UserSessionKind;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date;
  clientIp: string | null;
  userAgent: string | null;
}

interface UserSessionRow {
  token_id: string;
  kind: UserSessionKind;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date;
  client_ip: string | null;
  user_agent: string | null;
}

const toUserSession = (row: UserSessionRow): UserSession => ({
  tokenId: row.token_id,
  kind: row.kind,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
  clientIp: row.client_ip,
  userAgent: row.user_agent,
});

export async function insertUserSession(db: MetaTx, userId: string, session: UserSession): Promise<void> {
  await db.query(
    `INSERT INTO user_sessions (token_id, user_id, kind, created_at, expires_at, last_used_at, client_ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      session.tokenId,
      userId,
      session.kind,
      session.createdAt,
      session.expiresAt,
      session.lastUsedAt,
      session.clientIp,
      session.userAgent,
    ],
  );
}

/**
 * The user of a live session token and when the session was last used, in the one lookup every
 * authenticated request makes; null when the session was ended (or never recorded) or the user is gone.
 */
export async function findUserOfSession(
  db: MetaTx,
  userId: string,
  tokenId: string,
): Promise<{ user: User; lastUsedAt: Date } | null> {
  const rows = await db.query<UserColumns & { last_used_at: Date }>(
    `SELECT u.id, u.email, u.name, u.created_at, s.last_used_at
       FROM user_sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_id = $2 AND s.user_id = $1`,
    [userId, tokenId],
  );
  return rows[0] ? { user: toUser(rows[0]), lastUsedAt: rows[0].last_used_at } : null;
}

/** The user's sessions not yet expired at `now`, newest sign-in first. */
export async function listUserSessions(db: MetaTx, userId: string, now: Date): Promise<UserSession[]> {
  const rows = await db.query<UserSessionRow>(
    `SELECT token_id, kind, created_at, expires_at, last_used_at, client_ip, user_agent
       FROM user_sessions WHERE user_id = $1 AND expires_at > $2
      ORDER BY created_at DESC, token_id`,
    [userId, now],
  );
  return rows.map(toUserSession);
}

/** Ends one session of the user; false when they have no such session (another user's id included). */
export async function deleteUserSession(db: MetaTx, userId: string, tokenId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM user_sessions WHERE user_id = $1 AND token_id = $2 RETURNING token_id', [
    userId,
    tokenId,
  ]);
  return rows.length > 0;
}

/** Ends every session of the user but `keep` (null: all of them); returns how many live ones ended. */
export async function deleteUserSessionsExcept(
  db: MetaTx,
  userId: string,
  keep: string | null,
  now: Date,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH ended AS (
       DELETE FROM user_sessions WHERE user_id = $1 AND ($2::text IS NULL OR token_id <> $2) RETURNING expires_at
     )
     SELECT count(*) FILTER (WHERE expires_at > $3)::int AS n FROM ended`,
    [userId, keep, now],
  );
  return rows[0]?.n ?? 0;
}

/** Writes coalesced last uses (TokenUseRecorder); a later time only, so an old flush never moves one back. */
export async function recordUserSessionUse(db: MetaTx, uses: ReadonlyArray<{ id: string; at: Date }>): Promise<void> {
  if (uses.length === 0) return;
  await db.query(
    `UPDATE user_sessions s
        SET last_used_at = GREATEST(s.last_used_at, u.at)
       FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at)
      WHERE s.token_id = u.id`,
    [uses.map((use) => use.id), uses.map((use) => use.at.toISOString())],
  );
}

/** Deletes the rows of sessions expired before `before` (their tokens are refused anyway); returns how many. */
export async function deleteUserSessionsExpiredBefore(db: MetaTx, before: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'WITH pruned AS (DELETE FROM user_sessions WHERE expires_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM pruned',
    [before],
  );
  return rows[0]?.n ?? 0;
}
