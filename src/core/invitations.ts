/** Invitation rules: how long an invitation link works, and the state a listing shows. */
export const INVITATION_LIFE_DAYS = 7;

export type InvitationStatus = 'pending' | 'expired' | 'accepted' | 'revoked';

export function invitationStatus(
  invitation: { expiresAt: Date; acceptedAt: Date | null; revokedAt: Date | null },
  now: Date,
): InvitationStatus {
  if (invitation.acceptedAt !== null) return 'accepted';
  if (invitation.revokedAt !== null) return 'revoked';
  return now.getTime() >= invitation.expiresAt.getTime() ? 'expired' : 'pending';
}
