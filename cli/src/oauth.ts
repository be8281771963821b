/**
 * The service's OAuth endpoints (RFC 8628 device authorization, RFC 6749 refresh, logout), called
 * with form bodies as any OAuth client does; answers are checked against their RFC shapes.
 */
import { z } from 'zod';
import { CliError, EXIT, notSignedIn } from './errors.js';
import { fetchOrExplain, jsonBody, refusal } from './http.js';

export const CLIENT_ID = 'sightline-cli';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const deviceAuthorization = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  verification_uri_complete: z.string().optional(),
  expires_in: z.number(),
  interval: z.number().optional(),
});
export type DeviceAuthorization = z.infer<typeof deviceAuthorization>;

const tokenAnswer = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
});
export type TokenAnswer = z.infer<typeof tokenAnswer>;

const oauthRefusal = z.object({ error: z.string(), error_description: z.string().optional() });

async function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string>,
): Promise<{ response: Response; body: unknown }> {
  const response = await fetchOrExplain(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  });
  return { response, body: await jsonBody(response) };
}

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new CliError(`unexpected answer from ${what}`, EXIT.apiError);
  return result.data;
}

export async function startDeviceAuthorization(baseUrl: string): Promise<DeviceAuthorization> {
  const { response, body } = await postForm(baseUrl, '/api/auth/device/authorize', { client_id: CLIENT_ID });
  if (!response.ok) throw refusal(response, body);
  return parsed(deviceAuthorization, body, 'the device authorization endpoint');
}

export type PollOutcome =
  | { state: 'approved'; tokens: TokenAnswer }
  | { state: 'authorization_pending' }
  | { state: 'slow_down' };

/** One poll of the token endpoint; denial and expiry end the login (exit 4). */
export async function pollDeviceToken(baseUrl: string, deviceCode: string): Promise<PollOutcome> {
  const { response, body } = await postForm(baseUrl, '/api/auth/device/token', {
    grant_type: DEVICE_GRANT,
    device_code: deviceCode,
    client_id: CLIENT_ID,
  });
  if (response.ok) return { state: 'approved', tokens: parsed(tokenAnswer, body, 'the token endpoint') };
  const oauthError = response.status === 400 ? oauthRefusal.safeParse(body) : null;
  if (!oauthError?.success) throw refusal(response, body);
  switch (oauthError.data.error) {
    case 'authorization_pending':
    case 'slow_down':
      return { state: oauthError.data.error };
    case 'access_denied':
      throw new CliError(
        'the sign-in was denied in the browser',
        EXIT.notSignedIn,
        'run `sightline-cli login` again and approve the code',
      );
    case 'expired_token':
      throw new CliError(
        'the code expired before it was approved',
        EXIT.notSignedIn,
        'run `sightline-cli login` again',
      );
    default:
      throw refusal(response, body);
  }
}

/** A refresh grant: the new token pair, or "signed out" when the login is over (revoked, reused, expired). */
export async function refreshTokens(baseUrl: string, refreshToken: string): Promise<TokenAnswer> {
  const { response, body } = await postForm(baseUrl, '/api/auth/device/token', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: CLIENT_ID,
  });
  if (response.ok) return parsed(tokenAnswer, body, 'the token endpoint');
  const oauthError = response.status === 400 ? oauthRefusal.safeParse(body) : null;
  if (oauthError?.success && oauthError.data.error === 'invalid_grant') {
    throw notSignedIn(`signed out: ${oauthError.data.error_description ?? 'the login is no longer valid'}`);
  }
  throw refusal(response, body);
}

/** Revokes the login's refresh-token family (the service answers 200 for one already revoked). */
export async function revokeLogin(baseUrl: string, refreshToken: string): Promise<void> {
  const { response, body } = await postForm(baseUrl, '/api/auth/logout', { refresh_token: refreshToken });
  if (!response.ok) throw refusal(response, body);
}
