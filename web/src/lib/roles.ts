/** The organization roles as the dashboard names them. */
import type { Role } from './types';

export const ROLES: ReadonlyArray<{ value: Role; label: string }> = [
  { value: 'admin', label: 'Admin' },
  { value: 'write', label: 'Write' },
  { value: 'read-only', label: 'Read-only' },
];

export const roleLabel = (role: Role) => ROLES.find((r) => r.value === role)?.label ?? role;
