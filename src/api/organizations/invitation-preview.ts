/** The public preview of an invitation link, for the page it opens. */
import type { Services } from '../../application/services.js';
import { INVITATION_NOT_FOUND } from '../../application/organizations/invitations.js';
import { INVITATION_TOKEN, tokenHash } from '../../core/tokens.js';
import { notFound } from '../../http/errors.js';
import type { TypedScope } from '../../http/schema-types.js';
import { findOpenInvitation } from '../../store/meta/repositories/invitations.js';
import { findOrganization } from '../../store/meta/repositories/organizations.js';
import { errorAnswer, roleSchema } from '../answers.js';

/**
 * `POST /api/invitations/preview {token}`, public: what an open invitation offers (the
 * organization's name, the invited address and the role), so its page can say what accepting
 * means before anyone signs in; 404 for a token that is unknown, expired, revoked or used. It
 * tells only the holder of a link what the link's mail told them.
 */
export function invitationPreviewRoutes(scope: TypedScope, services: Services): void {
  scope.post(
    '/api/invitations/preview',
    {
      schema: {
        summary: 'What an open invitation offers (organization name, address, role), for the holder of its token',
        body: {
          type: 'object',
          required: ['token'],
          additionalProperties: false,
          properties: { token: { type: 'string', maxLength: 100 } },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              organization: { type: 'object', properties: { name: { type: 'string' } } },
              email: { type: 'string' },
              role: roleSchema,
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
      const invitation = INVITATION_TOKEN.test(token)
        ? await findOpenInvitation(services.meta, tokenHash(token), new Date(services.now()))
        : null;
      const organization = invitation && (await findOrganization(services.meta, invitation.organizationId));
      if (!invitation || !organization) throw notFound(INVITATION_NOT_FOUND);
      return {
        organization: { name: organization.name },
        email: invitation.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
      };
    },
  );
}
