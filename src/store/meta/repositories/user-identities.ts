/** Accounts at social sign-in providers linked to users, one user per (provider, subject). */
import type { MetaTx } from '../types.js';
import { toUser, type User, type UserColumns } from './users.js';

/** The user linked to this provider account, or null. */
export async function findUserByIdentity(db: MetaTx, provider: string, subject: string): Promise<User | null> {
  const rows = await db.query<UserColumns>(
    `SELECT u.id, u.email, u.name, u.created_at
       FROM user_identities i JOIN users u ON u.id = i.user_id
      WHERE i.provider = $1 AND i.subject = $2`,
    [provider, subject],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/**
 * Links a provider account to a user. When the account is linked already (a concurrent sign-in
 * won), the existing link stands: returns the user it names.
 */
export async function linkIdentity(db: MetaTx, identity: { provider: string; subject: string; userId: string; email: string; createdAt: Date }): Promise<string> {
  const rows = await db.query<{ user_id: string }>(
    `INSERT INTO user_identities (provider, subject, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (provider, subject) DO UPDATE SET provider = EXCLUDED.provider
     RETURNING user_id`,
    [identity.provider, identity.subject, identity.userId, identity.email, identity.createdAt],
  );
  return rows[0]!.user_id;
}
