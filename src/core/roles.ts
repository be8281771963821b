/**
 * Roles, from most to least powerful. A project's effective role is the caller's organization
 * role, narrowed (never widened) by a project-level override.
 */
export const ROLES = ['admin', 'write', 'read-only'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { admin: 3, write: 2, 'read-only': 1 };

export function atLeast(role: Role, required: Role): boolean {
  return RANK[role] >= RANK[required];
}

export function effectiveRole(organizationRole: Role, projectOverride: Role | null): Role {
  if (projectOverride === null) return organizationRole;
  return RANK[projectOverride] < RANK[organizationRole] ? projectOverride : organizationRole;
}
