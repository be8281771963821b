/**
 * A plan's project and seat limits as the dashboard tells them before a form is filled. The
 * server's 422 (src/core/plans.ts limitMessage) stays the authority: a race still gets its answer.
 */
import type { Usage } from './queries';

/** What frees room, in the server's words. */
const REMEDY = {
  projects: 'delete a project or move to a plan with more',
  seats: 'revoke an invitation, remove a member or move to a plan with more',
} as const;

/**
 * "Seat limit reached (2 of 2): revoke an invitation, …" when `used` has reached the plan's limit,
 * else null. Seats are members plus pending invitations, as the server counts them.
 */
export function limitReachedNote(usage: Usage | undefined, key: 'projects' | 'seats', used: number): string | null {
  if (!usage) return null;
  const limit = usage.limits[key];
  if (used < limit) return null;
  return `${key === 'projects' ? 'Project' : 'Seat'} limit reached (${used} of ${limit}): ${REMEDY[key]}.`;
}
