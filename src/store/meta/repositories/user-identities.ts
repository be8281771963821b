/**
 * Accounts at social sign-in providers linked to users, one user per (issuer, subject): a
 * subject is unique only within the issuer that vouches for it.
 */
import type { MetaTx } from '../types.js';
import { toUser, type User, type UserColumns } from './users.js';

export interface IdentityKey {
  issuer: string;
  subject: string;
}

/** The user linked to this account of this issuer, or null. */
export async function findUserByIdentity(db: MetaTx, key: IdentityKey): Promise<User | null> {
  const rows = await db.query<UserColumns>(
    `SELECT u.id, u.email, u.name, u.created_at
       FROM user_identities i JOIN users u ON u.id = i.user_id
      WHERE i.issuer = $1 AND i.subject = $2`,
    [key.issuer, key.subject],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/**
 * Links an issuer's account to a user. When the account is linked already (a concurrent sign-in
 * won), the existing link stands: returns the user it names.
 */
export async function linkIdentity(
  db: MetaTx,
  identity: IdentityKey & { provider: string; userId: string; email: string; createdAt: Date },
): Promise<string> {
  const rows = await db.query<{ user_id: string }>(
    `INSERT INTO user_identities (issuer, subject, provider, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (issuer, subject) DO UPDATE SET issuer = EXCLUDED.issuer
     RETURNING user_id`,
    [identity.issuer, identity.subject, identity.provider, identity.userId, identity.email, identity.createdAt],
  );
  return rows[0]!.user_id;
}
