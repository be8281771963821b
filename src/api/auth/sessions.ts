/**
 * Where the caller is signed in (beyond the spec): their dashboard sessions and CLI password
 * logins, each endable, and "sign out everywhere else", which also ends their device logins.
 * Behind requireDashboardUser like the device-login routes: a dashboard session or a personal
 * access token, never a CLI or device token, so a token held by a device can neither list the
 * person's other sessions nor end them.
 */
import type { TypedScope } from '../../http/schema-types.js';
import { notFound } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import { endSessionsOfUser } from '../../application/auth/user-sessions.js';
import { deleteUserSession, listUserSessions } from '../../store/meta/repositories/user-sessions.js';
import { principalOf, requireDashboardUser, requireUser } from '../authenticate.js';
import { errorAnswer, statusAnswer } from '../answers.js';

const sessionAnswer = {
  type: 'object',
  required: ['id', 'kind', 'current', 'createdAt', 'lastUsedAt', 'expiresAt', 'ip', 'userAgent'],
  properties: {
    id: { type: 'string', description: 'the session (its token id)' },
    kind: {
      type: 'string',
      enum: ['session', 'cli'],
      description: '`session`: a dashboard sign-in; `cli`: a CLI password login',
    },
    current: { type: 'boolean', description: 'whether this is the session the request was made with' },
    createdAt: { type: 'string', format: 'date-time', description: 'when the person signed in' },
    lastUsedAt: {
      type: 'string',
      format: 'date-time',
      description: 'the last request made with it, to within about five minutes',
    },
    expiresAt: { type: 'string', format: 'date-time' },
    ip: { type: ['string', 'null'], description: 'the client address the sign-in came from' },
    userAgent: { type: ['string', 'null'], description: "the sign-in's User-Agent; null when none was sent" },
  },
} as const;

const errors = { 401: { description: 'no valid credential (empty body)' }, 403: errorAnswer } as const;

export function accountSessionRoutes(scope: TypedScope, services: Services): void {
  scope.addHook('onRequest', requireUser(services));
  scope.addHook('onRequest', requireDashboardUser());

  scope.get(
    '/api/auth/sessions',
    {
      schema: {
        summary:
          "The caller's live dashboard sessions and CLI password logins, newest first (their CLI device logins are at /api/auth/device-sessions)",
        security: [{ bearer: [] }],
        response: {
          200: {
            type: 'object',
            required: ['sessions'],
            properties: { sessions: { type: 'array', items: sessionAnswer } },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      const { user, sessionId } = principalOf(request);
      // The recorded uses first, so the list shows the caller's latest activity.
      await services.sessionUse.flush();
      const sessions = await listUserSessions(services.meta, user.id, new Date(services.now()));
      return {
        sessions: sessions.map((session) => ({
          id: session.tokenId,
          kind: session.kind,
          current: session.tokenId === sessionId,
          createdAt: session.createdAt.toISOString(),
          lastUsedAt: session.lastUsedAt.toISOString(),
          expiresAt: session.expiresAt.toISOString(),
          ip: session.clientIp,
          userAgent: session.userAgent,
        })),
      };
    },
  );

  scope.delete(
    '/api/auth/sessions/:id',
    {
      schema: {
        summary:
          "Ends one of the caller's sessions (the current one too): its token is refused from the next request on",
        security: [{ bearer: [] }],
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } },
        response: { 200: statusAnswer('ended'), 404: errorAnswer, ...errors },
      },
    },
    async (request) => {
      // Another user's session, an unknown id and one already ended answer alike.
      if (!(await deleteUserSession(services.meta, principalOf(request).user.id, request.params.id)))
        throw notFound('no session of yours has this id');
      return { status: 'ended' as const };
    },
  );

  scope.post(
    '/api/auth/sessions/end-others',
    {
      schema: {
        summary:
          'Signs the caller out everywhere else: every other dashboard session and CLI password login, and every CLI device login; the session making the request stays (with a personal access token, none stays)',
        security: [{ bearer: [] }],
        response: {
          200: {
            type: 'object',
            required: ['endedSessions', 'revokedDeviceLogins'],
            properties: {
              endedSessions: { type: 'integer', description: 'dashboard sessions and CLI password logins ended' },
              revokedDeviceLogins: { type: 'integer', description: 'CLI device logins revoked' },
            },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      const { user, sessionId } = principalOf(request);
      const ended = await services.meta.transaction((tx) =>
        endSessionsOfUser(tx, user.id, sessionId, 'revoked_by_user', new Date(services.now())),
      );
      return { endedSessions: ended.sessions, revokedDeviceLogins: ended.deviceLogins };
    },
  );
}
