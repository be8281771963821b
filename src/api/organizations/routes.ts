/**
 * Organizations: creating one (any signed-in person under the registration policy; they become
 * its only admin), and per organization (path `:organizationId`): members (list; role change and removal by an admin, or
 * leaving by oneself; never the last admin), invitations (admin; within the plan's seat limit,
 * counting members and open invitations; mailed to the invitee when mail is configured; rate
 * limited per organization and per address), settings (read by members, written by admins), and
 * accepting an invitation as a signed-in user.
 */
import { INVITATION_LIFE_DAYS, invitationStatus } from '../../core/invitations.js';
import { organizationSettingsProblem } from '../../core/organizations.js';
import { canonicalTimeZone } from '../../core/time-zones.js';
import { limitMessage, limitReached } from '../../core/plans.js';
import { newInvitationToken, tokenHash } from '../../core/tokens.js';
import { forbidden, notFound, unprocessable } from '../../http/errors.js';
import type { TypedScope } from '../../http/schema-types.js';
import { sendInBackground } from '../../application/mail.js';
import type { Services } from '../../application/services.js';
import {
  countPendingInvitations,
  isMemberByEmail,
  listInvitations,
  revokeInvitation,
  upsertInvitation,
  type Invitation,
} from '../../store/meta/repositories/invitations.js';
import {
  countAdmins,
  countMembers,
  deleteMember,
  findOrganizationSettings,
  listMembers,
  lockOrganization,
  renameOrganization,
  saveOrganizationSettings,
  updateMemberRole,
  type Member,
} from '../../store/meta/repositories/organizations.js';
import type { MetaTx } from '../../store/meta/types.js';
import { principalOf, requireUser } from '../authenticate.js';
import { planOf } from '../../application/billing/plan-of.js';
import { organizationScopeOf, requireOrganizationRole } from '../organization-scope.js';
import { UUID } from '../../core/ids.js';
import { RATE_LIMITS, assertWithinRateLimit } from '../rate-limit.js';
import { acceptInvitation } from '../../application/organizations/invitations.js';
import { assertOrganizationCreationOpen, createOrganization } from '../../application/auth/accounts.js';
import { errorAnswer, memberOrganizationAnswer, membershipAnswer, roleSchema, statusAnswer } from '../answers.js';

const DAY_MS = 24 * 3600 * 1000;
const NO_MEMBER = 'no member of this organization has this id';
const LAST_ADMIN = 'an organization needs at least one admin: make another member admin first';

const memberAnswer = (member: Member) => ({ ...member, joinedAt: member.joinedAt.toISOString() });

const emailSchema = { type: 'string', minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' } as const;

const organizationPath = {
  type: 'object',
  required: ['organizationId'],
  properties: { organizationId: { type: 'string' } },
} as const;
const memberPath = {
  type: 'object',
  required: ['organizationId', 'userId'],
  properties: { organizationId: { type: 'string' }, userId: { type: 'string' } },
} as const;
const invitationPath = {
  type: 'object',
  required: ['organizationId', 'id'],
  properties: { organizationId: { type: 'string' }, id: { type: 'string' } },
} as const;

/** Refusals of an organization route (organization-scope.ts) and of its handler. */
const scopedErrors = { 400: errorAnswer, 403: errorAnswer, 404: errorAnswer } as const;

const memberAnswerSchema = {
  type: 'object',
  required: ['userId', 'email', 'name', 'role', 'joinedAt'],
  properties: {
    userId: { type: 'string', format: 'uuid' },
    email: { type: 'string' },
    name: { type: 'string' },
    role: roleSchema,
    joinedAt: { type: 'string', format: 'date-time' },
  },
} as const;

const invitationFields = {
  id: { type: 'string', format: 'uuid' },
  email: { type: 'string' },
  role: roleSchema,
  status: { type: 'string', enum: ['pending', 'expired', 'accepted', 'revoked'] },
  createdAt: { type: 'string', format: 'date-time' },
  expiresAt: { type: 'string', format: 'date-time' },
} as const;
const invitationAnswerSchema = {
  type: 'object',
  required: ['id', 'email', 'role', 'status', 'createdAt', 'expiresAt'],
  properties: invitationFields,
} as const;

const settingsAnswerSchema = {
  type: 'object',
  required: ['name', 'timezone'],
  properties: {
    name: { type: 'string' },
    timezone: { type: 'string', description: 'IANA time zone name; UTC unless set' },
  },
} as const;

export function organizationRoutes(scope: TypedScope, services: Services): void {
  scope.addHook('onRequest', requireUser(services));
  const now = () => new Date(services.now());
  const member = requireOrganizationRole(services, { minimum: 'read-only', from: 'path' });
  const admin = requireOrganizationRole(services, { minimum: 'admin', from: 'path' });

  scope.post(
    '/api/organizations',
    {
      schema: {
        description:
          'Creates an organization on the default plan with the caller as its only admin. The name follows the rename rules (422). With registration closed (REGISTRATION first-user or invite-only) only an admin of an organization may (403 otherwise); 429 past 10 an hour per person.',
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string' } },
        },
        response: {
          201: memberOrganizationAnswer,
          400: errorAnswer,
          403: errorAnswer,
          422: errorAnswer,
          429: errorAnswer,
        },
      },
    },
    async (request, reply) => {
      const { user } = principalOf(request);
      const problem = organizationSettingsProblem({ name: request.body.name });
      if (problem !== null) throw unprocessable(problem);
      await assertOrganizationCreationOpen(services, services.meta, user.id);
      await assertWithinRateLimit(services, RATE_LIMITS.organizationCreation, user.id);
      const organization = await services.meta.transaction((tx) =>
        createOrganization(tx, request.body.name.trim(), user.id),
      );
      return reply
        .code(201)
        .send({ id: organization.id, name: organization.name, role: 'admin' as const, suspended: false });
    },
  );

  scope.get(
    '/api/organizations/:organizationId/members',
    {
      onRequest: member,
      schema: {
        summary: 'The members of the organization',
        params: organizationPath,
        response: {
          200: {
            type: 'object',
            required: ['members'],
            properties: { members: { type: 'array', items: memberAnswerSchema } },
          },
          ...scopedErrors,
        },
      },
    },
    async (request) => {
      const members = await listMembers(services.meta, organizationScopeOf(request).organizationId);
      return { members: members.map(memberAnswer) };
    },
  );

  scope.put(
    '/api/organizations/:organizationId/members/:userId',
    {
      onRequest: admin,
      schema: {
        summary: "Change a member's role (admin; never the last admin's)",
        params: memberPath,
        body: { type: 'object', required: ['role'], additionalProperties: false, properties: { role: roleSchema } },
        response: { 200: memberAnswerSchema, ...scopedErrors, 422: errorAnswer },
      },
    },
    async (request) => {
      const { organizationId } = organizationScopeOf(request);
      const { userId } = request.params;
      if (!UUID.test(userId)) throw notFound(NO_MEMBER);
      const changed = await services.meta.transaction(async (tx) => {
        await lockOrganization(tx, organizationId);
        const updated = await updateMemberRole(tx, organizationId, userId, request.body.role, now());
        if (updated && (await countAdmins(tx, organizationId)) === 0) throw unprocessable(LAST_ADMIN);
        return updated;
      });
      if (!changed) throw notFound(NO_MEMBER);
      return memberAnswer(changed);
    },
  );

  scope.delete(
    '/api/organizations/:organizationId/members/:userId',
    {
      onRequest: [
        member,
        // Admins remove anyone; every member may leave. Checked before the body is read, like every role.
        async (request) => {
          if (organizationScopeOf(request).role !== 'admin' && request.params.userId !== principalOf(request).user.id)
            throw forbidden('this needs the admin role in the organization');
        },
      ],
      schema: {
        summary: 'Remove a member (admin), or leave (any member); never the last admin',
        params: memberPath,
        response: { 200: statusAnswer('removed'), ...scopedErrors, 422: errorAnswer },
      },
    },
    async (request) => {
      const { organizationId } = organizationScopeOf(request);
      const { userId } = request.params;
      if (!UUID.test(userId)) throw notFound(NO_MEMBER);
      const removed = await services.meta.transaction(async (tx) => {
        await lockOrganization(tx, organizationId);
        if (!(await deleteMember(tx, organizationId, userId))) return false;
        if ((await countAdmins(tx, organizationId)) === 0) throw unprocessable(LAST_ADMIN);
        return true;
      });
      if (!removed) throw notFound(NO_MEMBER);
      return { status: 'removed' as const };
    },
  );

  scope.get(
    '/api/organizations/:organizationId/invitations',
    {
      onRequest: admin,
      schema: {
        summary: "The organization's invitations, open and past (admin)",
        params: organizationPath,
        response: {
          200: {
            type: 'object',
            required: ['invitations'],
            properties: { invitations: { type: 'array', items: invitationAnswerSchema } },
          },
          ...scopedErrors,
        },
      },
    },
    async (request) => {
      const invitations = await listInvitations(services.meta, organizationScopeOf(request).organizationId);
      return { invitations: invitations.map((invitation) => invitationAnswer(invitation, now())) };
    },
  );

  scope.post(
    '/api/organizations/:organizationId/invitations',
    {
      onRequest: admin,
      schema: {
        description:
          'Invites an address (admin); with mail configured the link is mailed to it. 422 at the seat limit; 429 past 50 invitations an hour from the organization or 5 an hour to the address from all organizations.',
        body: {
          type: 'object',
          required: ['email', 'role'],
          additionalProperties: false,
          properties: { email: emailSchema, role: roleSchema },
        },
        params: organizationPath,
        response: {
          201: {
            type: 'object',
            required: [...invitationAnswerSchema.required, 'token', 'acceptUrl', 'mailQueued'],
            properties: {
              ...invitationFields,
              token: { type: 'string', description: 'the invitation secret (in this answer only)' },
              acceptUrl: { type: 'string', description: 'the link that accepts the invitation' },
              mailQueued: {
                type: 'boolean',
                description: 'whether a mail to the invitee was queued (mail configured)',
              },
            },
          },
          ...scopedErrors,
          422: errorAnswer,
          429: errorAnswer,
        },
      },
    },
    async (request, reply) => {
      const { organizationId } = organizationScopeOf(request);
      const email = request.body.email.trim();
      // Each invitation is a mail: neither an organization nor anyone's inbox gets a flood of them.
      // The address is counted by its SHA-256, so the coordination store holds no addresses.
      await assertWithinRateLimit(services, RATE_LIMITS.invitationsPerOrganization, organizationId);
      await assertWithinRateLimit(services, RATE_LIMITS.invitationsPerRecipient, tokenHash(email.toLowerCase()));
      const token = newInvitationToken();
      const createdAt = now();
      const invitation = await services.meta.transaction(async (tx) => {
        await lockOrganization(tx, organizationId);
        if (await isMemberByEmail(tx, organizationId, email))
          throw unprocessable('this address belongs to a member already');
        await assertSeatFree(services, tx, organizationId, email, createdAt);
        return upsertInvitation(tx, {
          organizationId,
          email,
          role: request.body.role,
          tokenHash: tokenHash(token),
          invitedBy: principalOf(request).user.id,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + INVITATION_LIFE_DAYS * DAY_MS),
        });
      });
      // The token is in this answer (the admin may pass the link on) and, with mail configured,
      // in a mail to the invitee sent after this answer; a failed mail is logged, never an error here.
      const acceptUrl = `${services.config.publicUrl}/accept-invitation?token=${token}`;
      const { mailer } = services;
      if (mailer) {
        const organization = await findOrganizationSettings(services.meta, organizationId);
        const inviter = principalOf(request).user;
        sendInBackground(
          mailer,
          {
            to: email,
            subject: `You are invited to ${organization?.name ?? 'an organization'} on Sightline`,
            text: [
              `${inviter.name || inviter.email} invited you to join ${organization?.name ?? 'their organization'} on Sightline as ${invitation.role}.`,
              '',
              `Accept the invitation within ${INVITATION_LIFE_DAYS} days:`,
              acceptUrl,
            ].join('\n'),
          },
          (reason) => request.log.warn({ reason, invitationId: invitation.id }, 'the invitation mail was not sent'),
        );
      }
      return reply
        .code(201)
        .send({ ...invitationAnswer(invitation, createdAt), token, acceptUrl, mailQueued: mailer !== null });
    },
  );

  scope.delete(
    '/api/organizations/:organizationId/invitations/:id',
    {
      onRequest: admin,
      schema: {
        summary: 'Revoke an open invitation (admin)',
        params: invitationPath,
        response: { 200: statusAnswer('revoked'), ...scopedErrors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const revoked =
        UUID.test(id) &&
        (await revokeInvitation(services.meta, organizationScopeOf(request).organizationId, id, now()));
      if (!revoked) throw notFound('no open invitation of this organization has this id');
      return { status: 'revoked' as const };
    },
  );

  scope.get(
    '/api/organizations/:organizationId/settings',
    {
      onRequest: member,
      schema: {
        summary: "The organization's settings",
        params: organizationPath,
        response: { 200: settingsAnswerSchema, ...scopedErrors },
      },
    },
    async (request) => {
      const settings = await findOrganizationSettings(services.meta, organizationScopeOf(request).organizationId);
      if (!settings) throw notFound('the organization no longer exists');
      return settingsAnswer(settings.name, settings.settings);
    },
  );

  scope.put(
    '/api/organizations/:organizationId/settings',
    {
      onRequest: admin,
      schema: {
        summary: 'Rename the organization or change its time zone (admin)',
        params: organizationPath,
        response: { 200: settingsAnswerSchema, ...scopedErrors, 422: errorAnswer },
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { name: { type: 'string' }, timezone: { type: 'string' } },
        },
      },
    },
    async (request) => {
      const { organizationId } = organizationScopeOf(request);
      const input = request.body ?? {};
      const problem = organizationSettingsProblem(input);
      if (problem !== null) throw unprocessable(problem);
      const saved = await services.meta.transaction(async (tx) => {
        const current = await findOrganizationSettings(tx, organizationId);
        if (!current) throw notFound('the organization no longer exists');
        const name = input.name?.trim() ?? current.name;
        const settings = {
          ...current.settings,
          ...(input.timezone === undefined ? {} : { timezone: canonicalTimeZone(input.timezone) }),
        };
        if (name !== current.name) await renameOrganization(tx, organizationId, name, now());
        await saveOrganizationSettings(tx, organizationId, settings, principalOf(request).user.id, now());
        return { name, settings };
      });
      return settingsAnswer(saved.name, saved.settings);
    },
  );

  scope.post(
    '/api/invitations/accept',
    {
      schema: {
        summary: 'Accept an invitation as the signed-in user',
        response: {
          200: { type: 'object', required: ['organization'], properties: { organization: membershipAnswer } },
          400: errorAnswer,
          404: errorAnswer,
          422: errorAnswer,
        },
        body: {
          type: 'object',
          required: ['token'],
          additionalProperties: false,
          properties: { token: { type: 'string', maxLength: 100 } },
        },
      },
    },
    async (request) => {
      const { user } = principalOf(request);
      const membership = await services.meta.transaction((tx) =>
        acceptInvitation(tx, request.body.token, user.id, now()),
      );
      return {
        organization: { id: membership.organization.id, name: membership.organization.name, role: membership.role },
      };
    },
  );
}

/** Seats are members plus open invitations; re-inviting an address already invited takes no new seat. */
async function assertSeatFree(
  services: Services,
  tx: MetaTx,
  organizationId: string,
  email: string,
  now: Date,
): Promise<void> {
  const plan = await planOf(services, tx, organizationId);
  const taken =
    (await countMembers(tx, organizationId)) + (await countPendingInvitations(tx, organizationId, now, email));
  if (limitReached(plan, 'seats', taken)) throw unprocessable(limitMessage(plan, 'seats'));
}

function invitationAnswer(invitation: Invitation, now: Date) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    status: invitationStatus(invitation, now),
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

function settingsAnswer(name: string, settings: Record<string, unknown>) {
  return { name, timezone: typeof settings.timezone === 'string' ? settings.timezone : 'UTC' };
}
