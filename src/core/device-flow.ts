/**
 * Rules of the device authorization grant (RFC 8628) and of refresh-token rotation (RFC 9700
 * §4.14): lifetimes, first-party clients, user codes, and the decision each poll or refresh
 * leads to. Pure: the caller reads the stored state, asks here, and writes the outcome.
 */
import { randomInt } from 'node:crypto';

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
export const DEVICE_CODE_LIFE_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: after slow_down the interval grows by 5 s for this and every later poll. */
export const SLOW_DOWN_STEP_SECONDS = 5;
export const ACCESS_TOKEN_LIFE_SECONDS = 15 * 60;
export const REFRESH_TOKEN_LIFE_SECONDS = 90 * 24 * 3600;

/** Clients that may start a device login; there is no dynamic registration. */
export const FIRST_PARTY_CLIENTS: Readonly<Record<string, { name: string }>> = {
  'sightline-cli': { name: 'Sightline CLI' },
};
export const DEFAULT_CLIENT_ID = 'sightline-cli';

export function isFirstPartyClient(clientId: string): boolean {
  return Object.hasOwn(FIRST_PARTY_CLIENTS, clientId);
}

/**
 * RFC 8628 §6.1's alphabet: upper-case consonants only, so no word is spelled and no character
 * looks like another (no vowels and no digits: no O/0 or I/1). 20^8 ≈ 2.6e10 codes, each alive
 * 600 s and usable only behind a signed-in session.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The stored form `XXXX-XXXX` of what a person typed (any case, dash or spaces optional), or null. */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== 8 || [...letters].some((c) => !USER_CODE_ALPHABET.includes(c))) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'consumed';

export interface DeviceCodeState {
  status: DeviceCodeStatus;
  expiresAt: Date;
  lastPolledAt: Date | null;
  intervalSeconds: number;
}

/** RFC 6749 §5.2 and RFC 8628 §3.5 error codes of the token endpoint. */
export type TokenErrorCode =
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token'
  | 'invalid_grant'
  | 'invalid_request'
  | 'invalid_client'
  | 'unsupported_grant_type';

export type PollOutcome =
  | { kind: 'issue' }
  /** Still waiting; `intervalSeconds` is the interval to store (raised after slow_down). */
  | { kind: 'wait'; error: 'authorization_pending' | 'slow_down'; intervalSeconds: number }
  | { kind: 'refuse'; error: 'access_denied' | 'expired_token' | 'invalid_grant' };

/** What a token-endpoint poll with this device code answers at `now`. */
export function pollOutcome(code: DeviceCodeState, now: Date): PollOutcome {
  // Single use: the code that already produced tokens is not a grant any more.
  if (code.status === 'consumed') return { kind: 'refuse', error: 'invalid_grant' };
  if (code.status === 'denied') return { kind: 'refuse', error: 'access_denied' };
  if (now.getTime() >= code.expiresAt.getTime()) return { kind: 'refuse', error: 'expired_token' };
  if (code.status === 'approved') return { kind: 'issue' };
  const tooSoon =
    code.lastPolledAt !== null && now.getTime() - code.lastPolledAt.getTime() < code.intervalSeconds * 1000;
  return tooSoon
    ? { kind: 'wait', error: 'slow_down', intervalSeconds: code.intervalSeconds + SLOW_DOWN_STEP_SECONDS }
    : { kind: 'wait', error: 'authorization_pending', intervalSeconds: code.intervalSeconds };
}

export interface RefreshTokenState {
  expiresAt: Date;
  rotatedAt: Date | null;
  familyRevokedAt: Date | null;
}

/**
 * `rotate`: issue the next token. `reuse`: a token already rotated away is presented again —
 * someone holds a copy, so the whole family is revoked (RFC 9700 §4.14.2). `revoked`, `expired`:
 * refused without further effect.
 */
export type RefreshOutcome = 'rotate' | 'reuse' | 'revoked' | 'expired';

export function refreshOutcome(token: RefreshTokenState, now: Date): RefreshOutcome {
  if (token.familyRevokedAt !== null) return 'revoked';
  if (token.rotatedAt !== null) return 'reuse';
  if (now.getTime() >= token.expiresAt.getTime()) return 'expired';
  return 'rotate';
}
