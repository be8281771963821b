/**
 * Password reset by mail. Asking (`POST /api/auth/password-reset {email}`, 5 a minute per client
 * address) answers 202 whether or not the address has an account, and mails a link holding a
 * single-use token (32 random bytes, stored as SHA-256, PASSWORD_RESET_TTL_MINUTES of life; a new
 * request voids the previous link). Confirming (`POST /api/auth/password-reset/confirm {token,
 * password}`) sets the password, ends every device login and every session or CLI token issued
 * before, and signs in. An account made through social sign-in sets its first password this way.
 */
import { PASSWORD_RESET_TOKEN, newPasswordResetToken, tokenHash } from '../../core/tokens.js';
import { unprocessable } from '../../http/errors.js';
import type { TypedScope } from '../../http/schema-types.js';
import { sendInBackground } from '../../application/mail.js';
import type { Services } from '../../application/services.js';
import {
  isPasswordResetTokenOpen,
  replacePasswordResetToken,
  usePasswordResetToken,
} from '../../store/meta/repositories/password-resets.js';
import { findUser, findUserCredentials, setPasswordHash } from '../../store/meta/repositories/users.js';
import { RATE_LIMITS, rateLimit } from '../rate-limit.js';
import { errorAnswer, sessionAnswer } from '../answers.js';
import { assertPasswordRules, hashPassword } from '../../application/auth/passwords.js';
import { endSessionsOfUser, originOf, startSession } from '../../application/auth/user-sessions.js';

export const MAIL_NOT_CONFIGURED = 'password reset is not available: mail (SMTP_URL) is not configured';
export const INVALID_RESET_LINK = 'this password reset link is invalid or has expired';

const MINUTE_MS = 60_000;

const requestSchema = {
  summary: 'Mail a password reset link (answers 202 whether or not the address has an account)',
  body: {
    type: 'object',
    required: ['email'],
    additionalProperties: false,
    properties: { email: { type: 'string', minLength: 3, maxLength: 320 } },
  },
  response: {
    202: { type: 'object', properties: { status: { type: 'string', enum: ['sent'] } } },
    400: errorAnswer,
    422: errorAnswer,
    429: errorAnswer,
  },
} as const;

const confirmSchema = {
  summary: 'Set a new password with the token of a reset link; answers a new dashboard session',
  body: {
    type: 'object',
    required: ['token', 'password'],
    additionalProperties: false,
    properties: { token: { type: 'string', maxLength: 100 }, password: { type: 'string' } },
  },
  response: {
    200: sessionAnswer,
    400: errorAnswer,
    422: errorAnswer,
  },
} as const;

export function passwordResetRoutes(scope: TypedScope, services: Services): void {
  const { config } = services;
  const ttlMs = config.passwordResetTtlMinutes * MINUTE_MS;

  scope.post(
    '/api/auth/password-reset',
    { schema: requestSchema, onRequest: rateLimit(services, RATE_LIMITS.passwordReset) },
    async (request, reply) => {
      const { mailer } = services;
      // Says nothing about the address: it is the same answer for every address.
      if (!mailer) throw unprocessable(MAIL_NOT_CONFIGURED);
      // The same work up to the lookup either way, and the mail goes out after the answer, so the
      // answer's timing does not tell whether the address has an account.
      const token = newPasswordResetToken();
      const hash = tokenHash(token);
      const found = await findUserCredentials(services.meta, request.body.email.trim());
      if (found) {
        const createdAt = new Date(services.now());
        await replacePasswordResetToken(services.meta, {
          userId: found.user.id,
          tokenHash: hash,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + ttlMs),
        });
        const link = `${config.publicUrl}/reset-password?token=${token}`;
        sendInBackground(
          mailer,
          {
            to: found.user.email,
            subject: 'Reset your Sightline password',
            text: [
              `Someone (hopefully you) asked to reset the password of the Sightline account ${found.user.email}.`,
              '',
              `Open this link within ${config.passwordResetTtlMinutes} minutes to choose a new password (it works once):`,
              link,
              '',
              'If you did not ask for this, ignore this mail: your password stays as it is.',
            ].join('\n'),
          },
          (reason) => request.log.warn({ reason }, 'the password reset mail was not sent'),
        );
      }
      return reply.code(202).send({ status: 'sent' });
    },
  );

  scope.post('/api/auth/password-reset/confirm', { schema: confirmSchema }, async (request, reply) => {
    const { token, password } = request.body;
    assertPasswordRules(password, config.auth.passwordMinLength);
    const hash = tokenHash(token);
    // Refuse an unknown link before hashing the password (argon2 is the costly part).
    if (
      !PASSWORD_RESET_TOKEN.test(token) ||
      !(await isPasswordResetTokenOpen(services.meta, hash, new Date(services.now())))
    ) {
      throw unprocessable(INVALID_RESET_LINK);
    }
    const passwordHash = await hashPassword(password);
    const now = new Date(services.now());
    const { user, session } = await services.meta.transaction(async (tx) => {
      // The conditional UPDATE uses the link: of two concurrent confirmations one wins.
      const owner = await usePasswordResetToken(tx, hash, now);
      if (owner === null) throw unprocessable(INVALID_RESET_LINK);
      await setPasswordHash(tx, owner, passwordHash, now);
      await endSessionsOfUser(tx, owner, null, 'password_changed', now);
      const user = await findUser(tx, owner);
      if (!user) throw unprocessable(INVALID_RESET_LINK);
      return { user, session: await startSession(services, owner, 'session', originOf(request), tx) };
    });
    void reply.header('cache-control', 'no-store');
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), user };
  });
}
