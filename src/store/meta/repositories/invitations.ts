/** Invitations to an organization. The invitation token is stored as its SHA-256. */
import type { Role } from '../../../core/roles.js';
import type { MetaTx } from '../types.js';

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, organization_id, email, role, created_at, expires_at, accepted_at, revoked_at';

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  role: row.role,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
  revokedAt: row.revoked_at,
});

/**
 * Opens an invitation, or renews the open one for the same address (new token, role and expiry):
 * inviting someone again re-sends the invitation instead of failing.
 */
export async function upsertInvitation(
  db: MetaTx,
  invitation: {
    organizationId: string;
    email: string;
    role: Role;
    tokenHash: string;
    invitedBy: string;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<Invitation> {
  const rows = await db.query<InvitationRow>(
    `INSERT INTO invitations (organization_id, email, role, token_hash, invited_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (organization_id, lower(email)) WHERE accepted_at IS NULL AND revoked_at IS NULL
     DO UPDATE SET role = EXCLUDED.role, token_hash = EXCLUDED.token_hash, invited_by = EXCLUDED.invited_by,
                   created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
     RETURNING ${COLUMNS}`,
    [
      invitation.organizationId,
      invitation.email,
      invitation.role,
      invitation.tokenHash,
      invitation.invitedBy,
      invitation.createdAt,
      invitation.expiresAt,
    ],
  );
  return toInvitation(rows[0]!);
}

export async function listInvitations(db: MetaTx, organizationId: string): Promise<Invitation[]> {
  const rows = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations WHERE organization_id = $1 ORDER BY created_at DESC, id`,
    [organizationId],
  );
  return rows.map(toInvitation);
}

/** Open, unexpired invitations other than the one to `exceptEmail`: each holds a seat. */
export async function countPendingInvitations(
  db: MetaTx,
  organizationId: string,
  now: Date,
  exceptEmail: string,
): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM invitations
      WHERE organization_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2 AND lower(email) <> lower($3)`,
    [organizationId, now, exceptEmail],
  );
  return rows[0]?.n ?? 0;
}

export async function isMemberByEmail(db: MetaTx, organizationId: string, email: string): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    `SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1 AND lower(u.email) = lower($2)`,
    [organizationId, email],
  );
  return rows.length > 0;
}

/** Revokes an open invitation of the organization; false when there is none with that id. */
export async function revokeInvitation(db: MetaTx, organizationId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE invitations SET revoked_at = $3
      WHERE id = $1 AND organization_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL
      RETURNING id`,
    [id, organizationId, now],
  );
  return rows.length > 0;
}

const OPEN_BY_TOKEN_HASH = `SELECT ${COLUMNS} FROM invitations
  WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2`;

/** The open, unexpired invitation with this token hash. */
export async function findOpenInvitation(db: MetaTx, tokenHash: string, now: Date): Promise<Invitation | null> {
  const rows = await db.query<InvitationRow>(OPEN_BY_TOKEN_HASH, [tokenHash, now]);
  return rows[0] ? toInvitation(rows[0]) : null;
}

/** The open, unexpired invitation with this token hash, locked until the transaction ends. */
export async function findOpenInvitationForUpdate(
  db: MetaTx,
  tokenHash: string,
  now: Date,
): Promise<Invitation | null> {
  const rows = await db.query<InvitationRow>(`${OPEN_BY_TOKEN_HASH} FOR UPDATE`, [tokenHash, now]);
  return rows[0] ? toInvitation(rows[0]) : null;
}

export async function markInvitationAccepted(db: MetaTx, id: string, userId: string, now: Date): Promise<void> {
  await db.query('UPDATE invitations SET accepted_at = $2, accepted_by = $3 WHERE id = $1', [id, now, userId]);
}
