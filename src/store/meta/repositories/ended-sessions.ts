/**
 * Signed-out session tokens (dashboard sessions and CLI password logins), by their JWT id, kept
 * until the token would have expired. Authentication reads them with the user (users.ts).
 */
import type { MetaTx } from '../types.js';

/**
 * Ends a token; ending it again changes nothing, nor does ending one of a user deleted since.
 * Rows of tokens past their expiry go at the same time (authentication refuses those anyway).
 */
export async function endSession(
  db: MetaTx,
  session: { tokenId: string; userId: string; endedAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query('DELETE FROM ended_sessions WHERE expires_at < $1', [session.endedAt]);
  await db.query(
    `INSERT INTO ended_sessions (token_id, user_id, ended_at, expires_at)
     SELECT $1, id, $3, $4 FROM users WHERE id = $2
     ON CONFLICT (token_id) DO NOTHING`,
    [session.tokenId, session.userId, session.endedAt, session.expiresAt],
  );
}
