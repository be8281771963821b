/**
 * Rate limits, kept in the coordination store so they hold across processes: per client address
 * on the authentication routes (the spec's Limits table) and on revoking all of one's personal
 * access tokens, per organization and per recipient on invitations, which send mail, and per
 * person on creating organizations. Ordinary
 * authenticated calls have none.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';
import type { Services } from '../application/services.js';

export interface RateLimitRule {
  /** Routes naming the same bucket share one count per subject (client address, organization, ...). */
  bucket: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const RATE_LIMITS = {
  passwordSignIn: { bucket: 'password-sign-in', limit: 10, windowMs: MINUTE },
  /** Changing one's password: a guess of the current password, limited apart from sign-in. */
  passwordChange: { bucket: 'password-change', limit: 10, windowMs: MINUTE },
  /** Registering with a password: each attempt costs an argon2 hash. */
  register: { bucket: 'register', limit: 10, windowMs: MINUTE },
  deviceAuthorize: { bucket: 'device-authorize', limit: 10, windowMs: MINUTE },
  /** Shared by the device token grant, the refresh grant (same route) and logout. */
  oauthToken: { bucket: 'oauth-token', limit: 60, windowMs: MINUTE },
  /** Shared by the start and the callback route of every social sign-in provider. */
  oauth: { bucket: 'oauth', limit: 20, windowMs: MINUTE },
  /** Asking for a password reset mail. */
  passwordReset: { bucket: 'password-reset', limit: 5, windowMs: MINUTE },
  /**
   * Revoking all of one's personal access tokens. Per client address like a password change, not
   * per person: a thief holding one of the person's credentials must not use up their allowance.
   */
  personalAccessTokenRevokeAll: { bucket: 'pat-revoke-all', limit: 10, windowMs: MINUTE },
  /** Organizations one person starts (each with the default plan's quotas): a handful, not a farm. */
  organizationCreation: { bucket: 'organization-creation', limit: 10, windowMs: HOUR },
  /** Invitations (each one mailed) an organization sends: more than a team onboarding at once. */
  invitationsPerOrganization: { bucket: 'invitations-organization', limit: 50, windowMs: HOUR },
  /** Invitations to one address from all organizations together, renewals included. */
  invitationsPerRecipient: { bucket: 'invitations-recipient', limit: 5, windowMs: HOUR },
} as const satisfies Record<string, RateLimitRule>;

/** Counts one call of `subject` against the rule; past the limit, 429 with the real wait. */
export async function assertWithinRateLimit(services: Services, rule: RateLimitRule, subject: string): Promise<void> {
  const result = await services.coord.rateLimit(`ratelimit:${rule.bucket}:${subject}`, rule.limit, rule.windowMs);
  if (result.allowed) return;
  const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
  throw new HttpError(429, `Too many requests, try again in ${seconds}s`, { 'Retry-After': String(seconds) });
}

/** An onRequest hook limiting each client address. */
export function rateLimit(services: Services, rule: RateLimitRule) {
  return (request: FastifyRequest): Promise<void> => assertWithinRateLimit(services, rule, request.ip);
}
