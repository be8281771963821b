/**
 * Personal access tokens of the caller: create (the secret is in this answer only), list (never
 * the secret), revoke. A token acts as its creator wherever a session does (authenticate.ts).
 */
import type { FastifyInstance } from 'fastify';
import { PAT_PREFIX_LENGTH, parsePatRequest } from '../../core/personal-access-tokens.js';
import { newPersonalAccessToken, tokenHash } from '../../core/tokens.js';
import { badRequest, notFound, unprocessable } from '../../http/errors.js';
import type { Services } from '../../application/services.js';
import {
  insertPersonalAccessToken,
  listPersonalAccessTokens,
  revokePersonalAccessToken,
  type PersonalAccessToken,
} from '../../store/meta/repositories/personal-access-tokens.js';
import { principalOf, requireUser } from '../authenticate.js';
import { UUID } from '../../core/ids.js';

const DAY_MS = 24 * 3600 * 1000;

const toAnswer = (token: PersonalAccessToken) => ({
  id: token.id,
  name: token.name,
  prefix: token.prefix,
  createdAt: token.createdAt.toISOString(),
  expiresAt: token.expiresAt?.toISOString() ?? null,
  lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
});

export function personalAccessTokenRoutes(scope: FastifyInstance, services: Services): void {
  scope.addHook('onRequest', requireUser(services));

  scope.post('/api/personal-access-tokens', async (request, reply) => {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('body must be a JSON object');
    const parsed = parsePatRequest(body as Record<string, unknown>);
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

  scope.get('/api/personal-access-tokens', async (request) => {
    // Pending last-use times are written first, so the list shows this caller's recent uses.
    await services.tokenUse.flush();
    const tokens = await listPersonalAccessTokens(services.meta, principalOf(request).user.id);
    return { tokens: tokens.map(toAnswer) };
  });

  scope.delete<{ Params: { id: string } }>('/api/personal-access-tokens/:id', async (request) => {
    const { id } = request.params;
    const revoked =
      UUID.test(id) &&
      (await revokePersonalAccessToken(services.meta, id, principalOf(request).user.id, new Date(services.now())));
    if (!revoked) throw notFound('no personal access token of yours has this id');
    return { status: 'revoked' };
  });
}
