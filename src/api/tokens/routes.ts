/**
 * Personal access tokens of the caller: create (the secret is in this answer only), list (never
 * the secret), revoke one, and revoke all (beyond the spec). A token acts as its creator wherever
 * a session does (authenticate.ts).
 */
import { PAT_PREFIX_LENGTH, parsePatRequest } from '../../core/personal-access-tokens.js';
import { newPersonalAccessToken, tokenHash } from '../../core/tokens.js';
import { notFound, unprocessable } from '../../http/errors.js';
import type { TypedScope } from '../../http/schema-types.js';
import type { Services } from '../../application/services.js';
import {
  insertPersonalAccessToken,
  listPersonalAccessTokens,
  revokeAllPersonalAccessTokens,
  revokePersonalAccessToken,
  type PersonalAccessToken,
} from '../../store/meta/repositories/personal-access-tokens.js';
import { principalOf, requireDashboardUser, requireUser } from '../authenticate.js';
import { RATE_LIMITS, rateLimit } from '../rate-limit.js';
import { UUID } from '../../core/ids.js';
import { errorAnswer } from '../answers.js';

const DAY_MS = 24 * 3600 * 1000;

const toAnswer = (token: PersonalAccessToken) => ({
  id: token.id,
  name: token.name,
  prefix: token.prefix,
  createdAt: token.createdAt.toISOString(),
  expiresAt: token.expiresAt?.toISOString() ?? null,
  lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
});

const tokenFields = {
  id: { type: 'string' },
  name: { type: 'string' },
  prefix: { type: 'string', description: 'the first characters of the token, to recognise it' },
  createdAt: { type: 'string', format: 'date-time' },
  expiresAt: { type: ['string', 'null'], format: 'date-time' },
} as const;

const tokenAnswer = {
  type: 'object',
  required: ['id', 'name', 'prefix', 'createdAt', 'expiresAt', 'lastUsedAt'],
  properties: { ...tokenFields, lastUsedAt: { type: ['string', 'null'], format: 'date-time' } },
} as const;

const createSchema = {
  summary: 'Create a personal access token (the secret is in this answer only)',
  // The fields are checked by parsePatRequest, not here: the spec answers a violation with 422, a
  // schema with 400. No body at all is no fields (a 422 naming the name), as before the schema.
  body: {
    type: ['object', 'null'],
    properties: {
      name: { description: 'required, at most 100 characters' },
      expiresInDays: { description: 'optional integer, 1 to 3650; without it the token does not expire' },
    },
  },
  response: {
    201: {
      type: 'object',
      required: ['id', 'name', 'prefix', 'token', 'createdAt', 'expiresAt'],
      properties: { ...tokenFields, token: { type: 'string' } },
    },
    400: errorAnswer,
    422: errorAnswer,
  },
} as const;

const listSchema = {
  summary: "The caller's personal access tokens (never their secrets)",
  response: {
    200: { type: 'object', required: ['tokens'], properties: { tokens: { type: 'array', items: tokenAnswer } } },
  },
} as const;

const revokeSchema = {
  summary: "Revoke one of the caller's personal access tokens",
  params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
  response: {
    200: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['revoked'] } } },
    404: errorAnswer,
  },
} as const;

const revokeAllSchema = {
  summary: "Revoke every one of the caller's personal access tokens at once",
  description:
    'An extension beyond the spec, for a lost or stolen machine: every token of the caller not yet revoked (expired ones too) is refused from the next request on; `revoked` counts them, so a second call answers 0. Takes a dashboard session or a personal access token (which revokes itself with the rest), not a CLI or device token (403); 429 past 10 a minute per client address.',
  security: [{ bearer: [] }],
  response: {
    200: {
      type: 'object',
      required: ['revoked'],
      properties: { revoked: { type: 'integer', description: 'how many tokens this call revoked' } },
    },
    401: { description: 'no valid credential (empty body)' },
    403: errorAnswer,
    429: errorAnswer,
  },
} as const;

export function personalAccessTokenRoutes(scope: TypedScope, services: Services): void {
  scope.addHook('onRequest', requireUser(services));

  scope.post('/api/personal-access-tokens', { schema: createSchema }, async (request, reply) => {
    const parsed = parsePatRequest(request.body ?? {});
    if (!parsed.ok) throw unprocessable(parsed.message);
    const token = newPersonalAccessToken();
    const createdAt = new Date(services.now());
    const stored = await insertPersonalAccessToken(services.meta, {
      userId: principalOf(request).user.id,
      name: parsed.name,
      prefix: token.slice(0, PAT_PREFIX_LENGTH),
      tokenHash: tokenHash(token),
      createdAt,
      expiresAt: parsed.expiresInDays === null ? null : new Date(createdAt.getTime() + parsed.expiresInDays * DAY_MS),
    });
    const answer = toAnswer(stored);
    // The only answer that holds the secret; the list never does.
    return reply.code(201).send({
      id: answer.id,
      name: answer.name,
      prefix: answer.prefix,
      token,
      createdAt: answer.createdAt,
      expiresAt: answer.expiresAt,
    });
  });

  scope.get('/api/personal-access-tokens', { schema: listSchema }, async (request) => {
    // Pending last-use times are written first, so the list shows this caller's recent uses.
    await services.tokenUse.flush();
    const tokens = await listPersonalAccessTokens(services.meta, principalOf(request).user.id);
    return { tokens: tokens.map(toAnswer) };
  });

  scope.delete('/api/personal-access-tokens/:id', { schema: revokeSchema }, async (request) => {
    const { id } = request.params;
    const revoked =
      UUID.test(id) &&
      (await revokePersonalAccessToken(services.meta, id, principalOf(request).user.id, new Date(services.now())));
    if (!revoked) throw notFound('no personal access token of yours has this id');
    return { status: 'revoked' as const };
  });

  // A person at the dashboard, as for ending their sessions: a CLI or device token (what a stolen
  // laptop holds) cannot take away the tokens its owner's scripts run with. A personal access
  // token may, itself included: revoking only takes access away, the token could already revoke
  // each of the others one by one, and a script from another machine is a fair way to react.
  scope.delete(
    '/api/personal-access-tokens',
    {
      schema: revokeAllSchema,
      onRequest: [requireDashboardUser(), rateLimit(services, RATE_LIMITS.personalAccessTokenRevokeAll)],
    },
    async (request) => {
      const { user } = principalOf(request);
      return { revoked: await revokeAllPersonalAccessTokens(services.meta, user.id, new Date(services.now())) };
    },
  );
}
