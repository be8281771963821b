/**
 * Accounts (DESIGN §4): register creates the user, an organization they administer and a first
 * project — or, through an invitation, makes them a member of the inviting organization; login
 * exchanges e-mail and password for a dashboard session token, or for a CLI token when a
 * first-party client asks (not refreshable: the CLI logs in again when it expires).
 */
import { isFirstPartyClient } from '../../core/device-flow.js';
import { notFound, unauthorized, unprocessable } from '../../http/errors.js';
import type { TypedScope } from '../../http/schema-types.js';
import type { Services } from '../../application/services.js';
import { isUniqueViolation } from '../../store/meta/types.js';
import { listMemberships } from '../../store/meta/repositories/organizations.js';
import { revokeRefreshFamily } from '../../store/meta/repositories/refresh-tokens.js';
import { deleteUserSession } from '../../store/meta/repositories/user-sessions.js';
import { endSessionsOfUser, originOf, startSession } from '../../application/auth/user-sessions.js';
import {
  findUserCredentials,
  findUserPasswordHash,
  setPasswordHash,
  updateUserName,
} from '../../store/meta/repositories/users.js';
import { bearerToken } from '../../http/bearer.js';
import { principalOf, requireDashboardUser, requireUser } from '../authenticate.js';
import { RATE_LIMITS, rateLimit } from '../rate-limit.js';
import { assertInvitationOpen } from '../../application/organizations/invitations.js';
import { assertRegistrationOpen, createAccount } from '../../application/auth/accounts.js';
import { errorAnswer, memberOrganizationAnswer, membershipAnswer, sessionAnswer, userAnswer } from '../answers.js';
import {
  PASSWORD_MAX_LENGTH,
  assertPasswordRules,
  decoyPasswordHash,
  hashPassword,
  verifyPassword,
} from '../../application/auth/passwords.js';

const email = { type: 'string', minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' } as const;

const registerSchema = {
  summary:
    'Create an account: with an organization the person administers and a first project, or through an invitation as a member of the inviting organization',
  body: {
    type: 'object',
    required: ['email', 'password', 'name'],
    additionalProperties: false,
    properties: {
      email,
      password: { type: 'string' },
      name: { type: 'string', minLength: 1, maxLength: 200 },
      organizationName: { type: 'string', minLength: 1, maxLength: 100 },
      invitationToken: { type: 'string', maxLength: 100 },
    },
  },
  response: {
    201: {
      type: 'object',
      required: ['token', 'expiresAt', 'user', 'organization', 'project'],
      properties: {
        ...sessionAnswer.properties,
        organization: membershipAnswer,
        project: {
          description: 'the first project; null when the account joined an organization through an invitation',
          anyOf: [
            {
              type: 'object',
              required: ['id', 'name', 'framework', 'organizationId', 'token'],
              properties: {
                id: { type: 'string', format: 'uuid' },
                name: { type: 'string' },
                framework: { type: 'string' },
                organizationId: { type: 'string', format: 'uuid' },
                token: { type: 'string', description: 'the ingest token' },
              },
            },
            { type: 'null' },
          ],
        },
      },
    },
    400: errorAnswer,
    403: errorAnswer,
    422: errorAnswer,
    429: errorAnswer,
  },
} as const;

const loginSchema = {
  summary:
    'Sign in with e-mail and password: a dashboard session token, or a CLI token when a first-party `clientId` asks',
  body: {
    type: 'object',
    required: ['email', 'password'],
    additionalProperties: false,
    properties: {
      email: { type: 'string', maxLength: 320 },
      password: { type: 'string', maxLength: PASSWORD_MAX_LENGTH },
      clientId: { type: 'string', maxLength: 100 },
    },
  },
  response: {
    200: sessionAnswer,
    400: errorAnswer,
    401: { description: 'unknown address or wrong password (empty body)', type: 'null' },
    422: errorAnswer,
    429: errorAnswer,
  },
} as const;

export function authRoutes(scope: TypedScope, services: Services): void {
  const { config } = services;

  scope.post(
    '/api/auth/register',
    { schema: registerSchema, onRequest: rateLimit(services, RATE_LIMITS.register) },
    async (request, reply) => {
      const { password, name, invitationToken } = request.body;
      const emailAddress = request.body.email.trim();
      // An invitation is the way in when registration is otherwise closed. Checked before the
      // password is hashed or the address looked at: a bogus one costs nothing and tells nothing.
      if (invitationToken === undefined) await assertRegistrationOpen(services);
      else await assertInvitationOpen(services.meta, invitationToken, new Date(services.now()));
      assertPasswordRules(password, config.auth.passwordMinLength);
      const passwordHash = await hashPassword(password);
      try {
        const { created, token, expiresAt } = await services.meta.transaction(async (tx) => {
          const created = await createAccount(
            tx,
            {
              email: emailAddress,
              name: name.trim(),
              passwordHash,
              organizationName: request.body.organizationName?.trim(),
              invitationToken,
            },
            new Date(services.now()),
          );
          return { created, ...(await startSession(services, created.user.id, 'session', originOf(request), tx)) };
        });
        return reply.code(201).send({
          token,
          expiresAt: expiresAt.toISOString(),
          user: created.user,
          organization: { id: created.organization.id, name: created.organization.name, role: created.role },
          project: created.project && {
            id: created.project.id,
            name: created.project.name,
            framework: created.project.framework,
            organizationId: created.project.organizationId,
            token: created.project.token,
          },
        });
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_key'))
          throw unprocessable('an account with this e-mail address already exists');
        throw error;
      }
    },
  );

  scope.post(
    '/api/auth/login',
    { schema: loginSchema, onRequest: rateLimit(services, RATE_LIMITS.passwordSignIn) },
    async (request) => {
      const { clientId } = request.body;
      if (clientId !== undefined && !isFirstPartyClient(clientId))
        throw unprocessable(`unknown client ${JSON.stringify(clientId)}`);
      const found = await findUserCredentials(services.meta, request.body.email.trim());
      // Verify against a decoy when the account is unknown, so timing does not tell which it was.
      const valid = await verifyPassword(found?.passwordHash ?? (await decoyPasswordHash()), request.body.password);
      if (!found?.passwordHash || !valid) throw unauthorized();
      const { token, expiresAt } = await startSession(
        services,
        found.user.id,
        clientId === undefined ? 'session' : 'cli',
        originOf(request),
      );
      return { token, expiresAt: expiresAt.toISOString(), user: found.user };
    },
  );

  // Signing out deletes the token's recorded session (authentication refuses it from then on); a
  // device access token ends its whole login, as logout with its refresh token does. Public like logout (RFC 7009 §2.2): a token already
  // ended, expired or unknown answers the same 204, so the call is idempotent and a client can
  // always clear its own state after it. A personal access token is left alone: it is revoked on
  // its own route. Only a request with no bearer credential at all is refused (401).
  scope.post('/api/auth/sign-out', { schema: signOutSchema }, async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    if (token === null) throw unauthorized();
    const claims = await services.sessions.verify(token);
    const now = new Date(services.now());
    if (claims?.kind === 'session' || claims?.kind === 'cli') {
      await deleteUserSession(services.meta, claims.userId, claims.tokenId);
    } else if (claims?.kind === 'device') {
      await revokeRefreshFamily(services.meta, claims.familyId, 'logout', now);
    }
    // The schema's null: Fastify sends a 204 with no body.
    return reply.code(204).header('cache-control', 'no-store').send(null);
  });
}

const signOutSchema = {
  summary:
    'Ends the session the bearer token is (dashboard session or CLI token; a device access token ends its device login); idempotent',
  security: [{ bearer: [] }],
  response: {
    204: { description: 'ended, or nothing left to end', type: 'null' },
    401: { description: 'no bearer credential (empty body)', type: 'null' },
  },
} as const;

export const WRONG_CURRENT_PASSWORD = 'the current password is not correct';
export const NO_PASSWORD_YET =
  'this account has no password yet (it signs in with a social provider): set one through a password reset';

const changePasswordSchema = {
  summary: "Change the caller's password; ends their other sessions and answers a new dashboard session",
  body: {
    type: 'object',
    required: ['currentPassword', 'newPassword'],
    additionalProperties: false,
    properties: {
      currentPassword: { type: 'string', maxLength: PASSWORD_MAX_LENGTH },
      newPassword: { type: 'string' },
    },
  },
  response: {
    200: sessionAnswer,
    400: errorAnswer,
    403: errorAnswer,
    422: errorAnswer,
    429: errorAnswer,
  },
} as const;

export const NAME_MAX_LENGTH = 200;

const updateMeSchema = {
  summary: "Change the caller's display name (trimmed; 1 to 200 characters)",
  security: [{ bearer: [] }],
  body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string' } } },
  response: {
    200: { type: 'object', required: ['user'], properties: { user: userAnswer } },
    400: errorAnswer,
    403: errorAnswer,
    404: errorAnswer,
    422: errorAnswer,
  },
} as const;

const meSchema = {
  summary: 'The caller, and the organizations they belong to with their role in each',
  security: [{ bearer: [] }],
  response: {
    200: {
      type: 'object',
      required: ['user', 'organizations'],
      properties: {
        user: userAnswer,
        organizations: { type: 'array', items: memberOrganizationAnswer },
      },
    },
  },
} as const;

/** Routes every signed-in user has about themselves. */
export function meRoutes(scope: TypedScope, services: Services): void {
  scope.addHook('onRequest', requireUser(services));
  scope.get('/api/me', { schema: meSchema }, async (request) => {
    const { user } = principalOf(request);
    const memberships = await listMemberships(services.meta, user.id);
    return {
      user,
      organizations: memberships.map((m) => ({
        id: m.organization.id,
        name: m.organization.name,
        role: m.role,
        suspended: m.organization.suspended,
      })),
    };
  });

  // A missing or non-string name is a malformed body (400, from the schema); a string out of
  // bounds is a validation failure (422), as the spec's errors table splits them.
  scope.patch('/api/me', { schema: updateMeSchema, onRequest: requireDashboardUser() }, async (request) => {
    const name = request.body.name.trim();
    if (name.length === 0 || name.length > NAME_MAX_LENGTH)
      throw unprocessable(`name must be 1 to ${NAME_MAX_LENGTH} characters (after trimming spaces)`);
    const user = await updateUserName(services.meta, principalOf(request).user.id, name, new Date(services.now()));
    if (!user) throw notFound('the account no longer exists');
    return { user };
  });

  // A wrong current password is a 422 naming it, not a 401 (that means "your credential is bad" and
  // signs the dashboard out) nor a 403 (the spec's 403 is about access to a project or organization).
  // Like a reset, the change ends the user's device logins and older session and CLI tokens, and
  // answers a new session; personal access tokens stay.
  scope.post(
    '/api/auth/password',
    {
      schema: changePasswordSchema,
      onRequest: [requireDashboardUser(), rateLimit(services, RATE_LIMITS.passwordChange)],
    },
    async (request, reply) => {
      const { user } = principalOf(request);
      const { currentPassword, newPassword } = request.body;
      const currentHash = await findUserPasswordHash(services.meta, user.id);
      if (currentHash === null) throw unprocessable(NO_PASSWORD_YET);
      if (!(await verifyPassword(currentHash, currentPassword))) throw unprocessable(WRONG_CURRENT_PASSWORD);
      assertPasswordRules(newPassword, services.config.auth.passwordMinLength);
      const passwordHash = await hashPassword(newPassword);
      const now = new Date(services.now());
      const session = await services.meta.transaction(async (tx) => {
        await setPasswordHash(tx, user.id, passwordHash, now);
        await endSessionsOfUser(tx, user.id, null, 'password_changed', now);
        return startSession(services, user.id, 'session', originOf(request), tx);
      });
      void reply.header('cache-control', 'no-store');
      return { token: session.token, expiresAt: session.expiresAt.toISOString(), user };
    },
  );
}
