/**
 * The device login (RFC 8628) and its refresh-token family (RFC 9700): starting a device
 * authorization, the polls of the token endpoint, the refresh grant with rotation and reuse
 * detection, and logout. The decisions are the core's (core/device-flow.ts); this file reads the
 * state, applies them, and issues tokens.
 */
import {
  ACCESS_TOKEN_LIFE_SECONDS,
  DEVICE_CODE_LIFE_SECONDS,
  POLL_INTERVAL_SECONDS,
  REFRESH_TOKEN_LIFE_SECONDS,
  newUserCode,
  pollOutcome,
  refreshOutcome,
  type TokenErrorCode,
} from '../../core/device-flow.js';
import { DEVICE_CODE, REFRESH_TOKEN, newDeviceCode, newRefreshToken, tokenHash } from '../../core/tokens.js';
import type { Services } from '../services.js';
import {
  consumeDeviceCode,
  deleteDeviceCodesExpiredBefore,
  findDeviceCodeByHash,
  insertDeviceCode,
  recordDevicePoll,
} from '../../store/meta/repositories/device-codes.js';
import {
  findRefreshToken,
  insertRefreshFamily,
  insertRefreshToken,
  revokeRefreshFamily,
  rotateRefreshToken,
} from '../../store/meta/repositories/refresh-tokens.js';

/** A refusal of the token endpoint, answered 400 `{error, error_description}` (RFC 6749 §5.2). */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly code: TokenErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}

/** RFC 6749 §5.1 token response. */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** Expired codes are kept a day (their polls answer expired_token), then removed when a new one is issued. */
const EXPIRED_CODE_RETENTION_MS = 24 * 3600 * 1000;
/** Attempts at a user code not held by another pending code (collisions are ~1 in 10^10). */
const USER_CODE_ATTEMPTS = 5;

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}

export async function startDeviceAuthorization(
  services: Services,
  request: { clientId: string; requesterIp: string; requesterUserAgent: string | null },
): Promise<DeviceAuthorization> {
  const createdAt = new Date(services.now());
  await deleteDeviceCodesExpiredBefore(services.meta, new Date(createdAt.getTime() - EXPIRED_CODE_RETENTION_MS));
  const deviceCode = newDeviceCode();
  for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt++) {
    const userCode = newUserCode();
    const inserted = await insertDeviceCode(services.meta, {
      deviceCodeHash: tokenHash(deviceCode),
      userCode,
      clientId: request.clientId,
      intervalSeconds: POLL_INTERVAL_SECONDS,
      requesterIp: request.requesterIp,
      requesterUserAgent: request.requesterUserAgent?.slice(0, 512) ?? null,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + DEVICE_CODE_LIFE_SECONDS * 1000),
    });
    if (inserted) return { deviceCode, userCode, expiresIn: DEVICE_CODE_LIFE_SECONDS, interval: POLL_INTERVAL_SECONDS };
  }
  throw new Error(`no free user code after ${USER_CODE_ATTEMPTS} attempts`);
}

/** One poll of the token endpoint with a device code: tokens once approved, otherwise an OAuthError. */
export async function pollDeviceCode(
  services: Services,
  deviceCode: string,
  clientId: string | null,
): Promise<TokenResponse> {
  const code = DEVICE_CODE.test(deviceCode) ? await findDeviceCodeByHash(services.meta, tokenHash(deviceCode)) : null;
  if (!code || (clientId !== null && clientId !== code.clientId))
    throw new OAuthError('invalid_grant', 'unknown device code');
  const now = new Date(services.now());
  const outcome = pollOutcome(code, now);
  if (outcome.kind === 'wait') {
    await recordDevicePoll(services.meta, code.id, now, outcome.intervalSeconds);
    throw new OAuthError(
      outcome.error,
      outcome.error === 'slow_down'
        ? `polling too fast: wait ${outcome.intervalSeconds} s between polls`
        : 'the user has not decided yet',
    );
  }
  if (outcome.kind === 'refuse') throw new OAuthError(outcome.error, REFUSALS[outcome.error]);
  const login = await services.meta.transaction(async (tx) => {
    // Single use: of two concurrent polls of an approved code, one consumes it, the other gets null.
    const consumed = await consumeDeviceCode(tx, code.id, now);
    if (!consumed) return null;
    const familyId = await insertRefreshFamily(tx, {
      userId: consumed.userId,
      clientId: consumed.clientId,
      createdAt: now,
      requesterIp: consumed.requesterIp,
      requesterUserAgent: consumed.requesterUserAgent,
    });
    const refreshToken = newRefreshToken();
    await insertRefreshToken(tx, {
      familyId,
      tokenHash: tokenHash(refreshToken),
      createdAt: now,
      expiresAt: refreshExpiry(now),
    });
    return { userId: consumed.userId, familyId, refreshToken };
  });
  if (!login) throw new OAuthError('invalid_grant', REFUSALS.invalid_grant);
  return tokenResponse(services, login.userId, login.familyId, login.refreshToken);
}

const REFUSALS = {
  access_denied: 'the user denied the request',
  expired_token: 'the device code has expired: start again',
  invalid_grant: 'the device code was already used',
} as const;

/** The refresh grant: rotates the refresh token and issues a new access token. */
export async function refreshGrant(services: Services, refreshToken: string): Promise<TokenResponse> {
  const stored = REFRESH_TOKEN.test(refreshToken)
    ? await findRefreshToken(services.meta, tokenHash(refreshToken))
    : null;
  if (!stored) throw new OAuthError('invalid_grant', 'unknown refresh token');
  const now = new Date(services.now());
  const outcome = refreshOutcome(stored, now);
  if (outcome === 'revoked') throw new OAuthError('invalid_grant', 'this login was revoked: sign in again');
  if (outcome === 'expired') throw new OAuthError('invalid_grant', 'the refresh token has expired: sign in again');
  const next = newRefreshToken();
  const rotated =
    outcome === 'rotate' &&
    (await services.meta.transaction((tx) =>
      rotateRefreshToken(tx, stored, { tokenHash: tokenHash(next), createdAt: now, expiresAt: refreshExpiry(now) }),
    ));
  if (!rotated) {
    // Reuse of a rotated token (or losing a race to another use of the same token): a copy is in
    // someone else's hands, so the whole login ends (RFC 9700 §4.14.2).
    await revokeRefreshFamily(services.meta, stored.familyId, 'reuse_detected', now);
    throw new OAuthError('invalid_grant', 'the refresh token was already used: this login is revoked, sign in again');
  }
  return tokenResponse(services, stored.userId, stored.familyId, next);
}

/** Logout: revokes the refresh token's family; an unknown token changes nothing (RFC 7009 §2.2). */
export async function logout(services: Services, refreshToken: string): Promise<void> {
  const stored = REFRESH_TOKEN.test(refreshToken)
    ? await findRefreshToken(services.meta, tokenHash(refreshToken))
    : null;
  if (stored) await revokeRefreshFamily(services.meta, stored.familyId, 'logout', new Date(services.now()));
}

const refreshExpiry = (now: Date): Date => new Date(now.getTime() + REFRESH_TOKEN_LIFE_SECONDS * 1000);

async function tokenResponse(
  services: Services,
  userId: string,
  familyId: string,
  refreshToken: string,
): Promise<TokenResponse> {
  const { token } = await services.sessions.issue({ userId, kind: 'device', familyId }, ACCESS_TOKEN_LIFE_SECONDS);
  return {
    access_token: token,
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_LIFE_SECONDS,
  };
}
