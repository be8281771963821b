/** Users: parameterised SQL and the row -> domain conversion, nothing else. */
import type { MetaTx } from '../types.js';

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: Date;
}

/** The public columns of a user row (`id, email, name, created_at`), as other repositories join them. */
export type UserColumns = Pick<UserRow, 'id' | 'email' | 'name' | 'created_at'>;

export const toUser = (row: UserColumns): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: row.created_at,
});

/** The user and their password hash, for sign-in only. */
export async function findUserCredentials(
  db: MetaTx,
  email: string,
): Promise<{ user: User; passwordHash: string | null } | null> {
  const rows = await db.query<UserRow>(
    'SELECT id, email, name, password_hash, created_at FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  return rows[0] ? { user: toUser(rows[0]), passwordHash: rows[0].password_hash } : null;
}

/** The password hash of a user (null: social sign-in only, no password yet), for a password change. */
export async function findUserPasswordHash(db: MetaTx, id: string): Promise<string | null> {
  const rows = await db.query<Pick<UserRow, 'password_hash'>>('SELECT password_hash FROM users WHERE id = $1', [id]);
  return rows[0]?.password_hash ?? null;
}

export async function countUsers(db: MetaTx): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return rows[0]?.n ?? 0;
}

/** `passwordHash` null: an account made through social sign-in, with no password until a reset sets one. */
export async function insertUser(
  db: MetaTx,
  user: { email: string; name: string; passwordHash: string | null },
): Promise<User> {
  const rows = await db.query<UserRow>(
    'INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id, email, name, password_hash, created_at',
    [user.email, user.name, user.passwordHash],
  );
  return toUser(rows[0]!);
}

export async function findUser(db: MetaTx, id: string): Promise<User | null> {
  const rows = await db.query<UserColumns>('SELECT id, email, name, created_at FROM users WHERE id = $1', [id]);
  return rows[0] ? toUser(rows[0]) : null;
}

/** Renames a user; null when the user no longer exists. */
export async function updateUserName(db: MetaTx, id: string, name: string, now: Date): Promise<User | null> {
  const rows = await db.query<UserColumns>(
    'UPDATE users SET name = $2, updated_at = $3 WHERE id = $1 RETURNING id, email, name, created_at',
    [id, name, now],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/**
 * Sets a new password hash. (`users.password_changed_at`, migration 0003, is no longer written:
 * its one reader, the token-age check, gave way to session rows in migration 0013.)
 */
export async function setPasswordHash(db: MetaTx, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1', [userId, passwordHash, now]);
}
