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
  const rows = await db.query<OrganizationRow>('INSERT INTO organizations (name) VALUES ($1) RETURNING id, name, suspended_at, created_at', [name]);
  return toOrganization(rows[0]!);
}

export async function insertMembership(db: MetaTx, organizationId: string, userId: string, role: Role): Promise<void> {
  await db.query('INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, $3)', [organizationId, userId, role]);
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
