/**
 * Authentication of the application surface. Every protected scope adds `requireUser` as an
 * onRequest hook; it accepts a dashboard session token (JWT) and answers 401 with an empty body
 * for anything else (a project token, a malformed header, an expired or unknown credential).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken } from '../server/bearer.js';
import { unauthorized } from '../server/errors.js';
import type { Services } from '../server/services.js';
import { findUserById, type User } from '../store/meta/repositories/users.js';

export interface Principal {
  user: User;
  /** How the caller proved who they are. */
  credential: 'session' | 'cli';
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function requireUser(services: Services) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request.headers.authorization);
    if (token === null) throw unauthorized();
    const claims = await services.sessions.verify(token);
    if (!claims) throw unauthorized();
    const user = await findUserById(services.meta, claims.userId);
    if (!user) throw unauthorized();
    request.principal = { user, credential: claims.kind };
  };
}

/** The authenticated caller of a route behind requireUser. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
