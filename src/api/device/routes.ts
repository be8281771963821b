/**
 * Device authorization (RFC 8628). Public and rate limited per client address: authorize, the
 * token endpoint (device-code and refresh grants) and logout; bodies are JSON or form-encoded,
 * answers carry `Cache-Control: no-store`, refusals are RFC 6749 §5.2 `{error, error_description}`.
 * Behind a dashboard user: looking up, approving and denying a user code, and the caller's device
 * logins (list, revoke).
 */
import type { FastifyReply } from 'fastify';
import {
  DEFAULT_CLIENT_ID,
  DEVICE_GRANT_TYPE,
  FIRST_PARTY_CLIENTS,
  isFirstPartyClient,
  normalizeUserCode,
} from '../../core/device-flow.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { TypedScope } from '../../http/schema-types.js';
import type { Services } from '../../application/services.js';
import {
  decideDeviceCode,
  findPendingDeviceCode,
  type DeviceCode,
} from '../../store/meta/repositories/device-codes.js';
import { listLiveFamiliesOfUser, revokeFamilyOfUser } from '../../store/meta/repositories/refresh-tokens.js';
import { errorAnswer } from '../answers.js';
import { UUID } from '../../core/ids.js';
import { principalOf, requireDashboardUser, requireUser } from '../authenticate.js';
import { RATE_LIMITS, rateLimit } from '../rate-limit.js';
import {
  OAuthError,
  logout,
  pollDeviceCode,
  refreshGrant,
  startDeviceAuthorization,
} from '../../application/device/grants.js';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** The verification page of the dashboard. */
const verificationUri = (services: Services): string => `${services.config.publicUrl}/device`;

/** RFC 6749 §5.2 refusal of the OAuth endpoints. */
const oauthErrorAnswer = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
} as const;

// The OAuth endpoints take JSON or form bodies and check their fields themselves, so a bad one is
// an RFC 6749 refusal (`invalid_request`), never the service's own 400: the schemas here describe answers.
const authorizeSchema = {
  summary: 'Start a device authorization (RFC 8628 §3.1); body `client_id` (optional, a first-party client)',
  response: {
    200: {
      type: 'object',
      required: ['device_code', 'user_code', 'verification_uri', 'verification_uri_complete', 'expires_in', 'interval'],
      properties: {
        device_code: { type: 'string' },
        user_code: { type: 'string' },
        verification_uri: { type: 'string' },
        verification_uri_complete: { type: 'string' },
        expires_in: { type: 'integer', description: 'seconds' },
        interval: { type: 'integer', description: 'seconds the client waits between polls' },
      },
    },
    400: oauthErrorAnswer,
  },
} as const;

const tokenSchema = {
  summary:
    'Token endpoint: `grant_type` device_code (or its RFC 8628 URN) with `device_code`, or refresh_token with `refresh_token`',
  response: {
    200: {
      type: 'object',
      required: ['access_token', 'refresh_token', 'token_type', 'expires_in'],
      properties: {
        access_token: { type: 'string' },
        refresh_token: { type: 'string' },
        token_type: { type: 'string', enum: ['Bearer'] },
        expires_in: { type: 'integer', description: 'seconds' },
      },
    },
    400: oauthErrorAnswer,
  },
} as const;

const revokedAnswer = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['revoked'] } },
} as const;

const logoutSchema = {
  summary: 'End a device login: body `refresh_token`; its whole refresh-token family is revoked',
  response: { 200: revokedAnswer, 400: oauthErrorAnswer },
} as const;

const deviceRequestSchema = {
  summary: 'The pending device request of a user code, to show whom it comes from before approving',
  querystring: { type: 'object', properties: { user_code: { type: 'string' } } },
  response: {
    200: {
      type: 'object',
      required: ['userCode', 'clientId', 'clientName', 'requestedAt', 'expiresAt', 'requesterIp', 'requesterUserAgent'],
      properties: {
        userCode: { type: 'string' },
        clientId: { type: 'string' },
        clientName: { type: 'string' },
        requestedAt: { type: 'string', format: 'date-time' },
        expiresAt: { type: 'string', format: 'date-time' },
        requesterIp: { type: ['string', 'null'] },
        requesterUserAgent: { type: ['string', 'null'] },
      },
    },
    400: errorAnswer,
    404: errorAnswer,
  },
} as const;

const decisionSchema = (decision: 'approved' | 'denied') =>
  ({
    summary: decision === 'approved' ? 'Approve a pending device request' : 'Deny a pending device request',
    body: { type: 'object', properties: { user_code: { type: 'string' } } },
    response: {
      200: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: [decision] } } },
      400: errorAnswer,
      404: errorAnswer,
    },
  }) as const;

export async function deviceRoutes(scope: TypedScope, services: Services): Promise<void> {
  await scope.register(async (oauth) => oauthRoutes(oauth, services));
  await scope.register(async (approval) => approvalRoutes(approval, services));
}

function oauthRoutes(scope: TypedScope, services: Services): void {
  // OAuth refusals answer in RFC 6749 shape; every other error goes on to the service's handler.
  scope.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof OAuthError)) throw error;
    return reply.code(400).headers(NO_STORE).send({ error: error.code, error_description: error.description });
  });

  scope.post(
    '/api/auth/device/authorize',
    { schema: authorizeSchema, onRequest: rateLimit(services, RATE_LIMITS.deviceAuthorize) },
    async (request, reply) => {
      const clientId = optionalString(fields(request.body), 'client_id') ?? DEFAULT_CLIENT_ID;
      if (!isFirstPartyClient(clientId))
        throw new OAuthError('invalid_client', 'client_id is not a known first-party client');
      const started = await startDeviceAuthorization(services, {
        clientId,
        requesterIp: request.ip,
        requesterUserAgent: request.headers['user-agent'] ?? null,
      });
      const uri = verificationUri(services);
      return noStore(reply).send({
        device_code: started.deviceCode,
        user_code: started.userCode,
        verification_uri: uri,
        verification_uri_complete: `${uri}?user_code=${encodeURIComponent(started.userCode)}`,
        expires_in: started.expiresIn,
        interval: started.interval,
      });
    },
  );

  scope.post(
    '/api/auth/device/token',
    { schema: tokenSchema, onRequest: rateLimit(services, RATE_LIMITS.oauthToken) },
    async (request, reply) => {
      const body = fields(request.body);
      const grantType = requiredString(body, 'grant_type');
      // The spec names the grant `device_code`; RFC 8628 clients send its URN. Both are accepted.
      if (grantType === DEVICE_GRANT_TYPE || grantType === 'device_code') {
        return noStore(reply).send(
          await pollDeviceCode(services, requiredString(body, 'device_code'), optionalString(body, 'client_id')),
        );
      }
      if (grantType === 'refresh_token')
        return noStore(reply).send(await refreshGrant(services, requiredString(body, 'refresh_token')));
      throw new OAuthError('unsupported_grant_type', `grant_type must be ${DEVICE_GRANT_TYPE} or refresh_token`);
    },
  );

  scope.post(
    '/api/auth/logout',
    { schema: logoutSchema, onRequest: rateLimit(services, RATE_LIMITS.oauthToken) },
    async (request, reply) => {
      await logout(services, requiredString(fields(request.body), 'refresh_token'));
      return noStore(reply).send({ status: 'revoked' });
    },
  );
}

function approvalRoutes(scope: TypedScope, services: Services): void {
  scope.addHook('onRequest', requireUser(services));
  scope.addHook('onRequest', requireDashboardUser());

  scope.get('/api/device', { schema: deviceRequestSchema }, async (request) => {
    const code = await pendingCode(services, request.query.user_code);
    return {
      userCode: code.userCode,
      clientId: code.clientId,
      clientName: clientName(code.clientId),
      requestedAt: code.createdAt.toISOString(),
      expiresAt: code.expiresAt.toISOString(),
      requesterIp: code.requesterIp,
      requesterUserAgent: code.requesterUserAgent,
    };
  });

  for (const decision of ['approved', 'denied'] as const) {
    const path = `/api/device/${decision === 'approved' ? 'approve' : 'deny'}`;
    scope.post(path, { schema: decisionSchema(decision) }, async (request) => {
      const code = await pendingCode(services, request.body.user_code);
      const decided = await decideDeviceCode(
        services.meta,
        code.id,
        decision,
        principalOf(request).user.id,
        new Date(services.now()),
      );
      if (!decided) throw notFound(NO_PENDING_CODE);
      return { status: decision };
    });
  }
  deviceSessionRoutes(scope, services);
}

const clientName = (clientId: string): string => FIRST_PARTY_CLIENTS[clientId]?.name ?? clientId;

const deviceSessionAnswer = {
  type: 'object',
  required: [
    'id',
    'clientId',
    'clientName',
    'createdAt',
    'lastUsedAt',
    'expiresAt',
    'requesterIp',
    'requesterUserAgent',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'the login (refresh-token family)' },
    clientId: { type: 'string' },
    clientName: { type: 'string' },
    createdAt: {
      type: 'string',
      format: 'date-time',
      description: 'when the device login was approved and its first tokens issued',
    },
    lastUsedAt: {
      type: 'string',
      format: 'date-time',
      description:
        'when the client last obtained tokens (the login or its latest refresh); a client in use refreshes its 15-minute access token, so this is its last use to within 15 minutes',
    },
    expiresAt: {
      type: 'string',
      format: 'date-time',
      description: 'when the login ends unless refreshed (90 days after the latest refresh)',
    },
    requesterIp: {
      type: ['string', 'null'],
      description: 'the address the device authorization was requested from; null for a login made before it was kept',
    },
    requesterUserAgent: {
      type: ['string', 'null'],
      description: "the requesting client's User-Agent, as the approval page showed it; null when none was sent",
    },
  },
} as const;

const deviceSessionErrors = { 401: { description: 'no valid credential (empty body)' }, 403: errorAnswer } as const;

/**
 * The caller's CLI logins. Behind requireDashboardUser like approval: a dashboard session or a
 * personal access token (the spec accepts a PAT wherever a session is, and a PAT is a credential
 * the person made and manages themself), never a device or CLI token, so a token held by a device
 * can neither list the person's other logins nor end them.
 */
function deviceSessionRoutes(scope: TypedScope, services: Services): void {
  scope.get(
    '/api/auth/device-sessions',
    {
      schema: {
        summary: "The caller's active CLI logins (device authorizations whose refresh-token family is live)",
        security: [{ bearer: [] }],
        response: {
          200: {
            type: 'object',
            required: ['sessions'],
            properties: { sessions: { type: 'array', items: deviceSessionAnswer } },
          },
          ...deviceSessionErrors,
        },
      },
    },
    async (request) => {
      const logins = await listLiveFamiliesOfUser(
        services.meta,
        principalOf(request).user.id,
        new Date(services.now()),
      );
      return {
        sessions: logins.map((login) => ({
          id: login.id,
          clientId: login.clientId,
          clientName: clientName(login.clientId),
          createdAt: login.createdAt.toISOString(),
          lastUsedAt: login.lastRefreshedAt.toISOString(),
          expiresAt: login.expiresAt.toISOString(),
          requesterIp: login.requesterIp,
          requesterUserAgent: login.requesterUserAgent,
        })),
      };
    },
  );

  scope.delete(
    '/api/auth/device-sessions/:id',
    {
      schema: {
        summary:
          "Revokes one of the caller's CLI logins: its refresh token is refused from now on and its access tokens stop at once",
        security: [{ bearer: [] }],
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        response: {
          200: revokedAnswer,
          404: errorAnswer,
          ...deviceSessionErrors,
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      // Another user's login, an unknown id and one already ended answer alike.
      const revoked =
        UUID.test(id) &&
        (await revokeFamilyOfUser(
          services.meta,
          id,
          principalOf(request).user.id,
          'revoked_by_user',
          new Date(services.now()),
        ));
      if (!revoked) throw notFound('no active CLI login of yours has this id');
      return { status: 'revoked' as const };
    },
  );
}

const NO_PENDING_CODE = 'no pending device request has this code: it may have expired or been decided';

async function pendingCode(services: Services, userCode: string | undefined): Promise<DeviceCode> {
  if (userCode === undefined || userCode === '') throw badRequest('user_code is required');
  const normalized = normalizeUserCode(userCode);
  const code =
    normalized === null ? null : await findPendingDeviceCode(services.meta, normalized, new Date(services.now()));
  if (!code) throw notFound(NO_PENDING_CODE);
  return code;
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.headers(NO_STORE);
}

/** A JSON or form body as its fields; no body is no fields (JSON `null` is a body, and no object). */
function fields(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OAuthError('invalid_request', 'the body must be an object of parameters');
  return body as Record<string, unknown>;
}

/** A parameter absent is null; present, it is a string (JSON `null` included: not a parameter value). */
function optionalString(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} must be a string`);
  return value;
}

function requiredString(body: Record<string, unknown>, name: string): string {
  const value = optionalString(body, name);
  if (value === null || value === '') throw new OAuthError('invalid_request', `${name} is required`);
  return value;
}
