/**
 * Authentication of the application surface. Every protected scope adds `requireUser` as an
 * onRequest hook. One resolution path accepts the user credentials the spec names — a personal
 * access token (`tpp_`), a dashboard session token, a CLI login token or a device-flow access
 * token — and answers 401 with an empty body for anything else (a project token, a malformed
 * header, an expired, revoked or unknown credential).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PERSONAL_ACCESS_TOKEN, tokenHash } from '../core/tokens.js';
import { bearerToken } from '../http/bearer.js';
import { forbidden, unauthorized } from '../http/errors.js';
import type { Services } from '../application/services.js';
import { findPersonalAccessTokenByHash } from '../store/meta/repositories/personal-access-tokens.js';
import { findUserOfLiveFamily } from '../store/meta/repositories/refresh-tokens.js';
import { findUserOfSession } from '../store/meta/repositories/user-sessions.js';
import type { User } from '../store/meta/repositories/users.js';
import { SESSION_USE_INTERVAL_MS } from '../application/auth/user-sessions.js';

/** How the caller proved who they are. */
export type CredentialKind = 'session' | 'cli' | 'device' | 'pat';

export interface Principal {
  user: User;
  credential: CredentialKind;
  /** The JWT id of a dashboard session or CLI token (its recorded session); null for other credentials. */
  sessionId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function requireUser(services: Services) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request.headers.authorization);
    const principal = token === null ? null : await resolvePrincipal(services, token);
    if (!principal) throw unauthorized();
    request.principal = principal;
  };
}

async function resolvePrincipal(services: Services, token: string): Promise<Principal | null> {
  if (token.startsWith('tpp_')) {
    if (!PERSONAL_ACCESS_TOKEN.test(token)) return null;
    const found = await findPersonalAccessTokenByHash(services.meta, tokenHash(token));
    const now = services.now();
    if (!found || found.revoked || (found.expiresAt !== null && found.expiresAt.getTime() <= now)) return null;
    services.tokenUse.record(found.tokenId, new Date(now));
    return { user: found.user, credential: 'pat', sessionId: null };
  }
  const claims = await services.sessions.verify(token);
  if (!claims) return null;
  // A device access token dies with its family (logout, refresh-token reuse, password reset), not only at expiry.
  if (claims.kind === 'device') {
    const user = await findUserOfLiveFamily(services.meta, claims.familyId, claims.userId);
    return user ? { user, credential: claims.kind, sessionId: null } : null;
  }
  // A session or CLI token stands while its recorded session does (ending one deletes the record).
  // The lookup reads the session's last use too, so recording a new one is needed only every few
  // minutes, and then it is coalesced in memory: a request adds no statement of its own.
  const found = await findUserOfSession(services.meta, claims.userId, claims.tokenId);
  if (!found) return null;
  const now = services.now();
  if (now - found.lastUsedAt.getTime() >= SESSION_USE_INTERVAL_MS)
    services.sessionUse.record(claims.tokenId, new Date(now));
  return { user: found.user, credential: claims.kind, sessionId: claims.tokenId };
}

/** The authenticated caller of a route behind requireUser. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/**
 * onRequest hook (after requireUser) for routes that need a person at the dashboard: a session
 * or a personal access token (the spec accepts a PAT wherever a session is). A CLI or device-flow
 * token is refused, so a token held by a device cannot approve further device logins.
 */
export function requireDashboardUser() {
  return async (request: FastifyRequest): Promise<void> => {
    const { credential } = principalOf(request);
    if (credential !== 'session' && credential !== 'pat') throw forbidden('this needs a dashboard session');
  };
}
