/**
 * Dashboard sessions and CLI password logins as a person sees them: every such token is recorded
 * when issued (with where the sign-in came from) and is valid only while its record exists, so
 * ending a session — signing out, from the Account page, a password change — deletes the record.
 */
import type { MetaTx } from '../../store/meta/types.js';
import { revokeRefreshFamiliesOfUser } from '../../store/meta/repositories/refresh-tokens.js';
import {
  deleteUserSessionsExcept,
  deleteUserSessionsExpiredBefore,
  insertUserSession,
  type UserSessionKind,
} from '../../store/meta/repositories/user-sessions.js';
import { PeriodicJob, type PeriodicJobOptions } from '../jobs/periodic-job.js';
import type { Services } from '../services.js';

/**
 * A session's "last active" moves at most this often: authentication records a use only when the
 * stored one is older, and TokenUseRecorder writes the recorded uses in one statement a minute.
 */
export const SESSION_USE_INTERVAL_MS = 5 * 60_000;
export const SESSION_EXPIRY_INTERVAL_MS = 3600_000;

/** Where a sign-in came from, as the request showed it. */
export interface SignInOrigin {
  ip: string;
  userAgent: string | null;
}

/** The origin of a Fastify request (its address honours TRUST_PROXY as `request.ip` does). */
export const originOf = (request: { ip: string; headers: { 'user-agent'?: string } }): SignInOrigin => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

/** Issues a session or CLI token and records it (in `db`, the caller's transaction when given). */
export async function startSession(
  services: Services,
  userId: string,
  kind: UserSessionKind,
  origin: SignInOrigin,
  db: MetaTx = services.meta,
): Promise<{ token: string; expiresAt: Date }> {
  const issued = await services.sessions.issue({ userId, kind });
  await insertUserSession(db, userId, {
    tokenId: issued.tokenId,
    kind,
    createdAt: issued.issuedAt,
    expiresAt: issued.expiresAt,
    lastUsedAt: issued.issuedAt,
    clientIp: origin.ip.slice(0, 64),
    userAgent: origin.userAgent?.slice(0, 512) ?? null,
  });
  return { token: issued.token, expiresAt: issued.expiresAt };
}

/**
 * Ends every session and CLI login of the user but the session `keep` (null: keep none): their
 * session and CLI tokens, and their device logins (refresh-token families) with the reason given.
 */
export async function endSessionsOfUser(
  db: MetaTx,
  userId: string,
  keep: string | null,
  reason: 'password_changed' | 'revoked_by_user',
  now: Date,
): Promise<{ sessions: number; deviceLogins: number }> {
  const sessions = await deleteUserSessionsExcept(db, userId, keep, now);
  const deviceLogins = await revokeRefreshFamiliesOfUser(db, userId, reason, now);
  return { sessions, deviceLogins };
}

/** Deletes the records of expired sessions; runOnce() resolves with how many. */
export class SessionExpiryJob extends PeriodicJob<number> {
  constructor(db: MetaTx, now: () => number, options: PeriodicJobOptions) {
    super(() => deleteUserSessionsExpiredBefore(db, new Date(now())), options);
  }
}
