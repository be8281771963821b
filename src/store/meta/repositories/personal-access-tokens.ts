/** Personal access tokens: stored as SHA-256 hash and 12-character prefix, never as issued. */
import type { MetaTx } from '../types.js';
import { toUser, type User, type UserColumns } from './users.js';

export interface PersonalAccessToken {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

const COLUMNS = 'id, name, prefix, created_at, expires_at, last_used_at';

const toToken = (row: TokenRow): PersonalAccessToken => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

export async function insertPersonalAccessToken(
  db: MetaTx,
  token: { userId: string; name: string; prefix: string; tokenHash: string; createdAt: Date; expiresAt: Date | null },
): Promise<PersonalAccessToken> {
  const rows = await db.query<TokenRow>(
    `INSERT INTO personal_access_tokens (user_id, name, prefix, token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [token.userId, token.name, token.prefix, token.tokenHash, token.createdAt, token.expiresAt],
  );
  return toToken(rows[0]!);
}

/** The user's tokens that are not revoked (expired ones stay listed, with their expiresAt). */
export async function listPersonalAccessTokens(db: MetaTx, userId: string): Promise<PersonalAccessToken[]> {
  const rows = await db.query<TokenRow>(
    `SELECT ${COLUMNS} FROM personal_access_tokens WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at, id`,
    [userId],
  );
  return rows.map(toToken);
}

/** Revokes one of the user's live tokens; false when there is none with that id. */
export async function revokePersonalAccessToken(db: MetaTx, id: string, userId: string, now: Date): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE personal_access_tokens SET revoked_at = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
    [id, userId, now],
  );
  return rows.length > 0;
}

/** Revokes every token of the user not yet revoked (expired ones too, so the list empties); how many. */
export async function revokeAllPersonalAccessTokens(db: MetaTx, userId: string, now: Date): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'UPDATE personal_access_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id',
    [userId, now],
  );
  return rows.length;
}

export interface PersonalAccessTokenCredential {
  tokenId: string;
  user: User;
  expiresAt: Date | null;
  revoked: boolean;
}

/** The token with this hash and its user, for authentication. */
export async function findPersonalAccessTokenByHash(
  db: MetaTx,
  tokenHash: string,
): Promise<PersonalAccessTokenCredential | null> {
  const rows = await db.query<UserColumns & { token_id: string; expires_at: Date | null; revoked_at: Date | null }>(
    `SELECT t.id AS token_id, t.expires_at, t.revoked_at, u.id, u.email, u.name, u.created_at
       FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1`,
    [tokenHash],
  );
  const row = rows[0];
  return row
    ? { tokenId: row.token_id, user: toUser(row), expiresAt: row.expires_at, revoked: row.revoked_at !== null }
    : null;
}

/** Writes many last-use times in one statement; a time never moves backwards. */
export async function recordPersonalAccessTokenUse(
  db: MetaTx,
  uses: ReadonlyArray<{ id: string; at: Date }>,
): Promise<void> {
  if (uses.length === 0) return;
  await db.query(
    `UPDATE personal_access_tokens t
        SET last_used_at = GREATEST(t.last_used_at, u.at)
       FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at)
      WHERE t.id = u.id`,
    [uses.map((use) => use.id), uses.map((use) => use.at.toISOString())],
  );
}
