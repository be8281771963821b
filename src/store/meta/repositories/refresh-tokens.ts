/**
 * Refresh-token families of device logins. A family is one login; its tokens rotate on every
 * use and only the newest is live. Tokens are stored as their SHA-256.
 */
import type { MetaTx } from '../types.js';
import { toUser, type User, type UserColumns } from './users.js';

export type FamilyRevocationReason = 'logout' | 'reuse_detected' | 'password_changed' | 'revoked_by_user';

export async function insertRefreshFamily(
  db: MetaTx,
  family: {
    userId: string;
    clientId: string;
    createdAt: Date;
    requesterIp: string | null;
    requesterUserAgent: string | null;
  },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO refresh_token_families (user_id, client_id, created_at, requester_ip, requester_user_agent)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [family.userId, family.clientId, family.createdAt, family.requesterIp, family.requesterUserAgent],
  );
  return rows[0]!.id;
}

export async function insertRefreshToken(
  db: MetaTx,
  token: { familyId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO refresh_tokens (family_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4) RETURNING id',
    [token.familyId, token.tokenHash, token.createdAt, token.expiresAt],
  );
  return rows[0]!.id;
}

export interface StoredRefreshToken {
  id: string;
  familyId: string;
  userId: string;
  clientId: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  familyRevokedAt: Date | null;
}

export async function findRefreshToken(db: MetaTx, tokenHash: string): Promise<StoredRefreshToken | null> {
  const rows = await db.query<{
    id: string;
    family_id: string;
    user_id: string;
    client_id: string;
    expires_at: Date;
    rotated_at: Date | null;
    revoked_at: Date | null;
  }>(
    `SELECT t.id, t.family_id, f.user_id, f.client_id, t.expires_at, t.rotated_at, f.revoked_at
       FROM refresh_tokens t JOIN refresh_token_families f ON f.id = t.family_id
      WHERE t.token_hash = $1`,
    [tokenHash],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        familyId: row.family_id,
        userId: row.user_id,
        clientId: row.client_id,
        expiresAt: row.expires_at,
        rotatedAt: row.rotated_at,
        familyRevokedAt: row.revoked_at,
      }
    : null;
}

/**
 * Rotates a live token to its successor. Returns false when the token was rotated meanwhile (a
 * concurrent refresh won): the caller treats that as reuse.
 */
export async function rotateRefreshToken(
  db: MetaTx,
  current: { id: string; familyId: string },
  next: { tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const rotated = await db.query<{ id: string }>(
    'UPDATE refresh_tokens SET rotated_at = $2 WHERE id = $1 AND rotated_at IS NULL RETURNING id',
    [current.id, next.createdAt],
  );
  if (rotated.length === 0) return false;
  const nextId = await insertRefreshToken(db, { familyId: current.familyId, ...next });
  await db.query('UPDATE refresh_tokens SET replaced_by = $2 WHERE id = $1', [current.id, nextId]);
  return true;
}

/** Revokes a family (all its tokens and the access tokens bound to it); a revoked family keeps its first reason. */
export async function revokeRefreshFamily(
  db: MetaTx,
  familyId: string,
  reason: FamilyRevocationReason,
  now: Date,
): Promise<void> {
  await db.query(
    'UPDATE refresh_token_families SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL',
    [familyId, now, reason],
  );
}

/** Revokes every live family of a user (all their device logins); returns how many. */
export async function revokeRefreshFamiliesOfUser(
  db: MetaTx,
  userId: string,
  reason: FamilyRevocationReason,
  now: Date,
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'UPDATE refresh_token_families SET revoked_at = $2, revoked_reason = $3 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id',
    [userId, now, reason],
  );
  return rows.length;
}

/** The user of a device access token whose family is still live, or null. */
export async function findUserOfLiveFamily(db: MetaTx, familyId: string, userId: string): Promise<User | null> {
  const rows = await db.query<UserColumns>(
    `SELECT u.id, u.email, u.name, u.created_at
       FROM refresh_token_families f JOIN users u ON u.id = f.user_id
      WHERE f.id = $1 AND f.user_id = $2 AND f.revoked_at IS NULL`,
    [familyId, userId],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/** A live device login as its owner sees it. */
export interface DeviceLogin {
  id: string;
  clientId: string;
  createdAt: Date;
  /** When its newest refresh token was issued: the login itself or its latest refresh. */
  lastRefreshedAt: Date;
  /** When its newest refresh token expires (each refresh pushes it back). */
  expiresAt: Date;
  /** Where the device authorization was requested from; null for logins older than this record. */
  requesterIp: string | null;
  requesterUserAgent: string | null;
}

/** The user's live device logins (not revoked, newest refresh token unexpired), most recently refreshed first. */
export async function listLiveFamiliesOfUser(db: MetaTx, userId: string, now: Date): Promise<DeviceLogin[]> {
  const rows = await db.query<{
    id: string;
    client_id: string;
    created_at: Date;
    last_refreshed_at: Date;
    expires_at: Date;
    requester_ip: string | null;
    requester_user_agent: string | null;
  }>(
    `SELECT f.id, f.client_id, f.created_at, t.created_at AS last_refreshed_at, t.expires_at, f.requester_ip, f.requester_user_agent
       FROM refresh_token_families f JOIN refresh_tokens t ON t.family_id = f.id AND t.rotated_at IS NULL
      WHERE f.user_id = $1 AND f.revoked_at IS NULL AND t.expires_at > $2
      ORDER BY t.created_at DESC, f.id`,
    [userId, now],
  );
  return rows.map((row) => ({
    id: row.id,
    clientId: row.client_id,
    createdAt: row.created_at,
    lastRefreshedAt: row.last_refreshed_at,
    expiresAt: row.expires_at,
    requesterIp: row.requester_ip,
    requesterUserAgent: row.requester_user_agent,
  }));
}

/** Revokes one live login of the user; false when it is not theirs or already revoked. */
export async function revokeFamilyOfUser(
  db: MetaTx,
  familyId: string,
  userId: string,
  reason: FamilyRevocationReason,
  now: Date,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE refresh_token_families SET revoked_at = $3, revoked_reason = $4 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
    [familyId, userId, now, reason],
  );
  return rows.length > 0;
}
