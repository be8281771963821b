/**
 * Password reset links. The token is stored only as its SHA-256; a user has at most one open link
 * and a new one replaces it in place; a link is used once.
 */
import type { MetaTx } from '../types.js';

/** Opens a link for the user, replacing (and so voiding) their open one. */
export async function replacePasswordResetToken(
  db: MetaTx,
  token: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO password_reset_tokens (user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) WHERE used_at IS NULL
     DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
    [token.userId, token.tokenHash, token.createdAt, token.expiresAt],
  );
}

/** Whether an open, unexpired link has this hash (a read that does not use it). */
export async function isPasswordResetTokenOpen(db: MetaTx, tokenHash: string, now: Date): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM password_reset_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [tokenHash, now],
  );
  return rows.length > 0;
}

/**
 * Uses the open, unexpired link with this hash and returns its user, or null. One conditional
 * UPDATE: of two concurrent uses only one gets the user.
 */
export async function usePasswordResetToken(db: MetaTx, tokenHash: string, now: Date): Promise<string | null> {
  const rows = await db.query<{ user_id: string }>(
    `UPDATE password_reset_tokens SET used_at = $2
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
      RETURNING user_id`,
    [tokenHash, now],
  );
  return rows[0]?.user_id ?? null;
}
