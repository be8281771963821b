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

export const toUser = (row: UserColumns): User => ({ id: row.id, email: row.email, name: row.name, createdAt: row.created_at });

export async function findUserById(db: MetaTx, id: string): Promise<User | null> {
  const rows = await db.query<UserRow>('SELECT id, email, name, password_hash, created_at FROM users WHERE id = $1', [id]);
  return rows[0] ? toUser(rows[0]) : null;
}

/** The user and their password hash, for sign-in only. */
export async function findUserCredentials(db: MetaTx, email: string): Promise<{ user: User; passwordHash: string | null } | null> {
  const rows = await db.query<UserRow>('SELECT id, email, name, password_hash, created_at FROM users WHERE lower(email) = lower($1)', [email]);
  return rows[0] ? { user: toUser(rows[0]), passwordHash: rows[0].password_hash } : null;
}

export async function countUsers(db: MetaTx): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return rows[0]?.n ?? 0;
}

export async function insertUser(db: MetaTx, user: { email: string; name: string; passwordHash: string }): Promise<User> {
  const rows = await db.query<UserRow>(
    'INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id, email, name, password_hash, created_at',
    [user.email, user.name, user.passwordHash],
  );
  return toUser(rows[0]!);
}
