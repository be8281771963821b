/** Organizations and memberships. */
import type { Role } from '../../../core/roles.js';
import type { MetaTx } from '../types.js';

export interface Organization {
  id: string;
  name: string;
  suspended: boolean;
  createdAt: Date;
}

export interface Membership {
  organization: Organization;
  role: Role;
}

interface OrganizationRow {
  id: string;
  name: string;
  suspended_at: Date | null;
  created_at: Date;
}

const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  suspended: row.suspended_at !== null,
  createdAt: row.created_at,
});

export async function insertOrganization(db: MetaTx, name: string): Promise<Organization> {
  const rows = await db.query<OrganizationRow>(
    'INSERT INTO organizations (name) VALUES ($1) RETURNING id, name, suspended_at, created_at',
    [name],
  );
  return toOrganization(rows[0]!);
}

export async function insertMembership(db: MetaTx, organizationId: string, userId: string, role: Role): Promise<void> {
  await db.query('INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, $3)', [
    organizationId,
    userId,
    role,
  ]);
}

export async function listMemberships(db: MetaTx, userId: string): Promise<Membership[]> {
  const rows = await db.query<OrganizationRow & { role: Role }>(
    `SELECT o.id, o.name, o.suspended_at, o.created_at, m.role
       FROM memberships m JOIN organizations o ON o.id = m.organization_id
      WHERE m.user_id = $1
      ORDER BY o.created_at, o.id`,
    [userId],
  );
  return rows.map((row) => ({ organization: toOrganization(row), role: row.role }));
}

export async function findMembership(db: MetaTx, organizationId: string, userId: string): Promise<Membership | null> {
  const rows = await db.query<OrganizationRow & { role: Role }>(
    `SELECT o.id, o.name, o.suspended_at, o.created_at, m.role
       FROM memberships m JOIN organizations o ON o.id = m.organization_id
      WHERE m.organization_id = $1 AND m.user_id = $2`,
    [organizationId, userId],
  );
  const row = rows[0];
  return row ? { organization: toOrganization(row), role: row.role } : null;
}

/**
 * Locks the organization row until the transaction ends, so limit checks (count, then insert)
 * of concurrent requests on one organization run one after the other.
 */
export async function lockOrganization(db: MetaTx, organizationId: string): Promise<void> {
  await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
}

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  joinedAt: Date;
}

interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: Date;
}

const toMember = (row: MemberRow): Member => ({
  userId: row.user_id,
  email: row.email,
  name: row.name,
  role: row.role,
  joinedAt: row.created_at,
});

export async function listMembers(db: MetaTx, organizationId: string): Promise<Member[]> {
  const rows = await db.query<MemberRow>(
    `SELECT m.user_id, u.email, u.name, m.role, m.created_at
       FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1
      ORDER BY m.created_at, m.user_id`,
    [organizationId],
  );
  return rows.map(toMember);
}

export async function countMembers(db: MetaTx, organizationId: string): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM memberships WHERE organization_id = $1', [
    organizationId,
  ]);
  return rows[0]?.n ?? 0;
}

export async function countAdmins(db: MetaTx, organizationId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM memberships WHERE organization_id = $1 AND role = 'admin'",
    [organizationId],
  );
  return rows[0]?.n ?? 0;
}

export async function updateMemberRole(
  db: MetaTx,
  organizationId: string,
  userId: string,
  role: Role,
  now: Date,
): Promise<Member | null> {
  const rows = await db.query<MemberRow>(
    `UPDATE memberships m SET role = $3, updated_at = $4
       FROM users u
      WHERE m.organization_id = $1 AND m.user_id = $2 AND u.id = m.user_id
      RETURNING m.user_id, u.email, u.name, m.role, m.created_at`,
    [organizationId, userId, role, now],
  );
  return rows[0] ? toMember(rows[0]) : null;
}

/** Removes a member (their project-role overrides go with the membership). */
export async function deleteMember(db: MetaTx, organizationId: string, userId: string): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    'DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2 RETURNING user_id',
    [organizationId, userId],
  );
  return rows.length > 0;
}

export interface OrganizationSettings {
  name: string;
  /** The stored settings document; keys are validated by the API. */
  settings: Record<string, unknown>;
}

export async function findOrganizationSettings(
  db: MetaTx,
  organizationId: string,
): Promise<OrganizationSettings | null> {
  const rows = await db.query<{ name: string; settings: Record<string, unknown> | null }>(
    `SELECT o.name, s.settings
       FROM organizations o LEFT JOIN organization_settings s ON s.organization_id = o.id
      WHERE o.id = $1`,
    [organizationId],
  );
  const row = rows[0];
  return row ? { name: row.name, settings: row.settings ?? {} } : null;
}

export async function renameOrganization(db: MetaTx, organizationId: string, name: string, now: Date): Promise<void> {
  await db.query('UPDATE organizations SET name = $2, updated_at = $3 WHERE id = $1', [organizationId, name, now]);
}

export async function saveOrganizationSettings(
  db: MetaTx,
  organizationId: string,
  settings: Record<string, unknown>,
  userId: string,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO organization_settings (organization_id, settings, updated_at, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
    [organizationId, JSON.stringify(settings), now, userId],
  );
}

export async function findOrganization(db: MetaTx, organizationId: string): Promise<Organization | null> {
  const rows = await db.query<OrganizationRow>(
    'SELECT id, name, suspended_at, created_at FROM organizations WHERE id = $1',
    [organizationId],
  );
  return rows[0] ? toOrganization(rows[0]) : null;
}

/** Suspends the organization with a reason; a suspended one keeps its first suspension. */
export async function suspendOrganization(
  db: MetaTx,
  organizationId: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE organizations SET suspended_at = $2, suspended_reason = $3, updated_at = $2 WHERE id = $1 AND suspended_at IS NULL RETURNING id',
    [organizationId, now, reason],
  );
  return rows.length > 0;
}

/** Lifts a suspension made for `reason` only, so lifting never undoes a suspension made for another cause. */
export async function liftSuspension(db: MetaTx, organizationId: string, reason: string, now: Date): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE organizations SET suspended_at = NULL, suspended_reason = NULL, updated_at = $3
      WHERE id = $1 AND suspended_at IS NOT NULL AND suspended_reason = $2 RETURNING id`,
    [organizationId, reason, now],
  );
  return rows.length > 0;
}
