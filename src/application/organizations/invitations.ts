/**
 * Accepting an invitation: shared by the accept route and registration through an invitation;
 * and the public preview of an invitation link for the page it opens.
 */
import type { FastifyInstance } from 'fastify';
import { INVITATION_TOKEN, tokenHash } from '../../core/tokens.js';
import { notFound, unprocessable } from '../../http/errors.js';
import type { Services } from '../services.js';
import type { MetaTx } from '../../store/meta/types.js';
import { findOpenInvitation, findOpenInvitationForUpdate, markInvitationAccepted } from '../../store/meta/repositories/invitations.js';
import { findMembership, findOrganization, insertMembership, type Membership } from '../../store/meta/repositories/organizations.js';

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
  if (await findMembership(tx, invitation.organizationId, userId)) throw unprocessable('you are already a member of this organization');
  await insertMembership(tx, invitation.organizationId, userId, invitation.role);
  await markInvitationAccepted(tx, invitation.id, userId, now);
  const membership = await findMembership(tx, invitation.organizationId, userId);
  return membership!;
}

const errorAnswer = { type: 'object', properties: { error: { type: 'string' } } } as const;

/**
 * `POST /api/invitations/preview {token}`, public: what an open invitation offers (the
 * organization's name, the invited address and the role), so its page can say what accepting
 * means before anyone signs in; 404 for a token that is unknown, expired, revoked or used. It
 * tells only the holder of a link what the link's mail told them.
 */
export function invitationPreviewRoutes(scope: FastifyInstance, services: Services): void {
  scope.post<{ Body: { token: string } }>(
    '/api/invitations/preview',
    {
      schema: {
        summary: 'What an open invitation offers (organization name, address, role), for the holder of its token',
        body: { type: 'object', required: ['token'], additionalProperties: false, properties: { token: { type: 'string', maxLength: 100 } } },
        response: {
          200: {
            type: 'object',
            properties: {
              organization: { type: 'object', properties: { name: { type: 'string' } } },
              email: { type: 'string' },
              role: { type: 'string', enum: ['admin', 'write', 'read-only'] },
              expiresAt: { type: 'string', format: 'date-time' },
            },
          },
          400: errorAnswer,
          404: errorAnswer,
        },
      },
    },
    async (request) => {
      const { token } = request.body;
      const invitation = INVITATION_TOKEN.test(token) ? await findOpenInvitation(services.meta, tokenHash(token), new Date(services.now())) : null;
      const organization = invitation && (await findOrganization(services.meta, invitation.organizationId));
      if (!invitation || !organization) throw notFound(INVITATION_NOT_FOUND);
      return { organization: { name: organization.name }, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() };
    },
  );
}
