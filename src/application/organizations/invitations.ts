/**
 * Accepting an invitation: shared by the accept route and registration through an invitation.
 */
import { INVITATION_TOKEN, tokenHash } from '../../core/tokens.js';
import { notFound, unprocessable } from '../../http/errors.js';
import type { MetaTx } from '../../store/meta/types.js';
import {
  findOpenInvitation,
  findOpenInvitationForUpdate,
  markInvitationAccepted,
} from '../../store/meta/repositories/invitations.js';
import { findMembership, insertMembership, type Membership } from '../../store/meta/repositories/organizations.js';

export const INVITATION_NOT_FOUND = 'no open invitation with this token: it may have expired or been revoked';

/**
 * Throws 404 unless the token names an open invitation. Registration checks this before anything
 * else, so a bogus token costs no password hashing and answers alike whatever the e-mail address.
 */
export async function assertInvitationOpen(db: MetaTx, token: string, now: Date): Promise<void> {
  const invitation = INVITATION_TOKEN.test(token) ? await findOpenInvitation(db, tokenHash(token), now) : null;
  if (!invitation) throw notFound(INVITATION_NOT_FOUND);
}

/** Makes `userId` a member with the invitation's role; inside the caller's transaction. */
export async function acceptInvitation(tx: MetaTx, token: string, userId: string, now: Date): Promise<Membership> {
  const invitation = INVITATION_TOKEN.test(token) ? await findOpenInvitationForUpdate(tx, tokenHash(token), now) : null;
  if (!invitation) throw notFound(INVITATION_NOT_FOUND);
  if (await findMembership(tx, invitation.organizationId, userId))
    throw unprocessable('you are already a member of this organization');
  await insertMembership(tx, invitation.organizationId, userId, invitation.role);
  await markInvitationAccepted(tx, invitation.id, userId, now);
  const membership = await findMembership(tx, invitation.organizationId, userId);
  return membership!;
}
