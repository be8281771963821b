/**
 * Device authorization (RFC 8628) and device logins (RFC 9700 refresh rotation): every
 * transition of the device-code and refresh-family state tables on the service clock, the
 * discovery documents against RFC 8414 / RFC 9728, and a client that knows only the issuer URL
 * logging in end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { DAY, MINUTE, SECOND, TestClock, bearer, call, createPersonalAccessToken } from '../support/access.js';

const ISSUER = 'https://sightline.test';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('device authorization and device logins', () => {
  const clock = new TestClock();
  let service: TestService;
  let user: Awaited<ReturnType<typeof registerUser>>;
  /** The approving person's credential: a token without expiry, as the clock moves by months here. */
  let dashboard: string;

  beforeAll(async () => {
    service = await startTestService({ PUBLIC_URL: ISSUER }, { now: clock.now });
    user = await registerUser(service.app);
    dashboard = await createPersonalAccessToken(service.app, user.token, 'dashboard');
  });
  afterAll(async () => service?.close());

  // Each start comes from its own address: the authorize rate limit (10 a minute) is not under test here.
  let clients = 0;
  const nextAddress = () => `198.51.100.${++clients}`;
  const authorize = (payload: object = {}) =>
    call(service.app, { method: 'POST', url: '/api/auth/device/authorize', payload, remoteAddress: nextAddress() });
  const poll = (deviceCode: string) =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/device/token',
      payload: { grant_type: DEVICE_GRANT, device_code: deviceCode },
    });
  const refresh = (refreshToken: string) =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/device/token',
      payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
    });
  const decide = (decision: 'approve' | 'deny', userCode: string, token = dashboard) =>
    call(service.app, {
      method: 'POST',
      url: `/api/device/${decision}`,
      headers: bearer(token),
      payload: { user_code: userCode },
    });
  const lookUp = (userCode: string) =>
    call(service.app, { method: 'GET', url: `/api/device?user_code=${userCode}`, headers: bearer(dashboard) });
  const me = (token: string) => call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });

  /** A device login approved by the user: its token response. */
  async function login(): Promise<Record<string, any>> {
    const started = (await authorize()).body!;
    await decide('approve', started.user_code);
    const tokens = await poll(started.device_code);
    expect(tokens.status).toBe(200);
    return tokens.body!;
  }

  describe('device code: pending → approved / denied / expired', () => {
    it('authorize issues a device code and an XXXX-XXXX user code valid 600 s, polled every 5 s, with no-store', async () => {
      const started = await authorize();
      expect(started.status).toBe(200);
      expect(started.headers['cache-control']).toBe('no-store');
      const body = started.body!;
      expect(body.device_code).toMatch(/^tpd_[0-9a-f]{48}$/);
      expect(body.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
      expect(body).toMatchObject({ verification_uri: `${ISSUER}/device`, expires_in: 600, interval: 5 });
      expect(body.verification_uri_complete).toBe(`${ISSUER}/device?user_code=${body.user_code}`);
    });

    it('accepts a form body, defaults client_id to the CLI and refuses an unknown client', async () => {
      const form = await call(service.app, {
        method: 'POST',
        url: '/api/auth/device/authorize',
        remoteAddress: nextAddress(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'client_id=sightline-cli',
      });
      expect(form.status).toBe(200);
      const lookup = await lookUp(form.body!.user_code);
      expect(lookup.body).toMatchObject({
        userCode: form.body!.user_code,
        clientId: 'sightline-cli',
        clientName: 'Sightline CLI',
      });
      expect(lookup.raw).not.toContain(form.body!.device_code);
      const unknown = await authorize({ client_id: 'evil-app' });
      expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
    });

    it('pending: polls answer authorization_pending; a poll faster than the interval gets slow_down and a 5 s longer interval', async () => {
      const { device_code: code } = (await authorize()).body!;
      const first = await poll(code);
      expect(first).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
      expect(first.headers['cache-control']).toBe('no-store');
      clock.advance(2 * SECOND);
      expect((await poll(code)).body).toMatchObject({ error: 'slow_down' });
      clock.advance(6 * SECOND); // 6 s is enough for the first interval, not for the raised one of 10 s
      expect((await poll(code)).body).toMatchObject({ error: 'slow_down' });
      clock.advance(15 * SECOND); // the interval is 15 s now
      expect((await poll(code)).body).toMatchObject({ error: 'authorization_pending' });
    });

    it('approved: the next poll gets tokens, and the code is single-use', async () => {
      const { device_code: code, user_code: userCode } = (await authorize()).body!;
      expect(await decide('approve', userCode.toLowerCase())).toMatchObject({
        status: 200,
        body: { status: 'approved' },
      });
      const tokens = await poll(code);
      expect(tokens.status).toBe(200);
      expect(tokens.headers['cache-control']).toBe('no-store');
      expect(Object.keys(tokens.body!).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
      expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
      expect(tokens.body!.refresh_token).toMatch(/^tpr_[0-9a-f]{48}$/);
      expect((await me(tokens.body!.access_token)).body).toMatchObject({ user: { id: user.user.id } });
      clock.advance(5 * SECOND);
      expect(await poll(code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect((await decide('approve', userCode)).status).toBe(404);
    });

    it('denied: polls answer access_denied', async () => {
      const { device_code: code, user_code: userCode } = (await authorize()).body!;
      expect(await decide('deny', userCode)).toMatchObject({ status: 200, body: { status: 'denied' } });
      expect((await poll(code)).body).toMatchObject({ error: 'access_denied' });
      expect((await decide('approve', userCode)).status).toBe(404);
    });

    it('expired: 600 s without a decision end the code; polls answer expired_token and it can no longer be approved', async () => {
      const { device_code: code, user_code: userCode } = (await authorize()).body!;
      clock.advance(600 * SECOND - 1);
      expect((await lookUp(userCode)).status).toBe(200);
      clock.advance(1);
      expect((await poll(code)).body).toMatchObject({ error: 'expired_token' });
      const late = await decide('approve', userCode);
      expect(late).toMatchObject({
        status: 404,
        body: { error: 'no pending device request has this code: it may have expired or been decided' },
      });
      expect((await lookUp(userCode)).status).toBe(404);
    });

    it('lookup, approve and deny need a dashboard user: no credential is 401, a device or CLI token is 403', async () => {
      const { user_code: userCode } = (await authorize()).body!;
      expect(
        (await call(service.app, { method: 'POST', url: '/api/device/approve', payload: { user_code: userCode } }))
          .status,
      ).toBe(401);
      const device = await login();
      expect(await decide('approve', userCode, device.access_token)).toMatchObject({
        status: 403,
        body: { error: 'this needs a dashboard session' },
      });
      const cli = await call(service.app, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.user.email, password: 'correct horse battery', clientId: 'sightline-cli' },
      });
      expect((await decide('deny', userCode, cli.body!.token)).status).toBe(403);
      expect((await decide('deny', userCode, user.token)).status).toBe(200);
    });

    it('refuses malformed token requests in RFC 6749 shape', async () => {
      const send = (payload: object) => call(service.app, { method: 'POST', url: '/api/auth/device/token', payload });
      expect((await send({})).body).toEqual({ error: 'invalid_request', error_description: 'grant_type is required' });
      expect((await send({ grant_type: 'password' })).body).toMatchObject({ error: 'unsupported_grant_type' });
      expect((await send({ grant_type: DEVICE_GRANT })).body).toEqual({
        error: 'invalid_request',
        error_description: 'device_code is required',
      });
      expect((await send({ grant_type: 'device_code', device_code: 'tpd_nope' })).body).toMatchObject({
        error: 'invalid_grant',
      });
      expect((await send({ grant_type: 'refresh_token', refresh_token: 'tpr_nope' })).body).toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('refuses JSON null as a body or a parameter (before: authorize answered 200 to both)', async () => {
      const authorizeWith = (payload: string) =>
        call(service.app, {
          method: 'POST',
          url: '/api/auth/device/authorize',
          headers: { 'content-type': 'application/json' },
          payload,
        });
      expect(await authorizeWith('null')).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', error_description: 'the body must be an object of parameters' },
      });
      expect(await authorizeWith('{"client_id": null}')).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', error_description: 'client_id must be a string' },
      });
    });
  });

  describe('refresh family: valid → valid (rotation) → revoked (reuse or logout)', () => {
    it('the access token lives 15 minutes', async () => {
      const tokens = await login();
      clock.advance(15 * MINUTE - SECOND);
      expect((await me(tokens.access_token)).status).toBe(200);
      clock.advance(SECOND);
      const expired = await me(tokens.access_token);
      expect(expired.status).toBe(401);
      expect(expired.raw).toBe('');
    });

    it('refresh rotates the refresh token and issues a new access token', async () => {
      const first = await login();
      const second = await refresh(first.refresh_token);
      expect(second.status).toBe(200);
      expect(second.headers['cache-control']).toBe('no-store');
      expect(second.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
      expect(second.body!.refresh_token).not.toBe(first.refresh_token);
      expect((await me(second.body!.access_token)).status).toBe(200);
      const third = await refresh(second.body!.refresh_token);
      expect(third.status).toBe(200);
    });

    it('reuse of a rotated refresh token revokes the whole family: every token of it stops', async () => {
      const first = await login();
      const second = (await refresh(first.refresh_token)).body!;
      const reuse = await refresh(first.refresh_token);
      expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(reuse.body!.error_description).toMatch(/already used/);
      expect((await refresh(second.refresh_token)).body).toMatchObject({
        error: 'invalid_grant',
        error_description: 'this login was revoked: sign in again',
      });
      expect((await me(second.access_token)).status).toBe(401);
      expect((await me(first.access_token)).status).toBe(401);
    });

    it('logout revokes the family: refresh and access tokens stop at once', async () => {
      const tokens = await login();
      const out = await call(service.app, {
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refresh_token: tokens.refresh_token },
      });
      expect(out).toMatchObject({ status: 200, body: { status: 'revoked' } });
      expect((await refresh(tokens.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
      expect((await me(tokens.access_token)).status).toBe(401);
      const unknown = await call(service.app, {
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refresh_token: 'tpr_unknown' },
      });
      expect(unknown.status).toBe(200);
      const missing = await call(service.app, { method: 'POST', url: '/api/auth/logout', payload: {} });
      expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    });

    it('a refresh token lives 90 days from its issue', async () => {
      const tokens = await login();
      clock.advance(90 * DAY - SECOND);
      const renewed = await refresh(tokens.refresh_token);
      expect(renewed.status).toBe(200);
      clock.advance(90 * DAY);
      expect((await refresh(renewed.body!.refresh_token)).body).toMatchObject({
        error: 'invalid_grant',
        error_description: 'the refresh token has expired: sign in again',
      });
    });
  });

  describe('CLI password login', () => {
    it('yields a non-refreshable token for a first-party client, and 422 for an unknown one', async () => {
      const cli = await call(service.app, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.user.email, password: 'correct horse battery', clientId: 'sightline-cli' },
      });
      expect(cli.status).toBe(200);
      expect(Object.keys(cli.body!).sort()).toEqual(['expiresAt', 'token', 'user']);
      expect((await me(cli.body!.token)).status).toBe(200);
      const unknown = await call(service.app, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.user.email, password: 'correct horse battery', clientId: 'other' },
      });
      expect(unknown).toMatchObject({ status: 422, body: { error: 'unknown client "other"' } });
    });
  });

  describe('discovery', () => {
    it('authorization server metadata has RFC 8414’s required members and the device endpoint of RFC 8628', async () => {
      const response = await call(service.app, { method: 'GET', url: '/.well-known/oauth-authorization-server' });
      expect(response.status).toBe(200);
      const metadata = response.body!;
      // RFC 8414 §2 and §3.3: issuer is an https URL without query or fragment, equal to the issuer the document was fetched for.
      expect(metadata.issuer).toBe(ISSUER);
      expect(new URL(metadata.issuer).search + new URL(metadata.issuer).hash).toBe('');
      expect(metadata.token_endpoint).toBe(`${ISSUER}/api/auth/device/token`);
      expect(metadata.device_authorization_endpoint).toBe(`${ISSUER}/api/auth/device/authorize`);
      expect(metadata.grant_types_supported).toEqual(expect.arrayContaining([DEVICE_GRANT, 'refresh_token']));
      expect(metadata.response_types_supported).toEqual(expect.any(Array));
      // §3.2: members with zero elements are omitted.
      for (const value of Object.values(metadata)) if (Array.isArray(value)) expect(value.length).toBeGreaterThan(0);
    });

    it('protected resource metadata has RFC 9728’s members and names the authorization server', async () => {
      const response = await call(service.app, { method: 'GET', url: '/.well-known/oauth-protected-resource' });
      expect(response.status).toBe(200);
      // RFC 9728 §3.3: the resource equals the identifier the well-known URL was built from.
      expect(response.body).toMatchObject({
        resource: ISSUER,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ['header'],
      });
    });

    it('a client that knows only the resource URL logs in end to end, refreshes, detects theft and logs out', async () => {
      // The client speaks HTTP to absolute URLs; the service answers through inject.
      const http = async (
        url: string,
        init: { method?: string; form?: Record<string, string>; token?: string } = {},
      ) => {
        const response = await service.app.inject({
          method: init.method ?? (init.form ? 'POST' : 'GET'),
          url,
          remoteAddress: '203.0.113.9',
          headers: {
            ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
            ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          },
          ...(init.form ? { payload: new URLSearchParams(init.form).toString() } : {}),
        });
        return {
          status: response.statusCode,
          body: response.body === '' ? {} : (response.json() as Record<string, any>),
        };
      };
      const resource = (await http(`${ISSUER}/.well-known/oauth-protected-resource`)).body;
      const issuer: string = resource.authorization_servers[0];
      const as = (await http(`${issuer}/.well-known/oauth-authorization-server`)).body;
      expect(as.issuer).toBe(issuer);
      expect(as.grant_types_supported).toContain(DEVICE_GRANT);

      const started = (await http(as.device_authorization_endpoint, { form: { client_id: 'sightline-cli' } })).body;
      // The person opens verification_uri_complete in a signed-in dashboard and approves.
      const userCode = new URL(started.verification_uri_complete).searchParams.get('user_code')!;
      let tokens: Record<string, any> | null = null;
      for (let attempt = 0; attempt < 3 && !tokens; attempt++) {
        const answer = await http(as.token_endpoint, {
          form: { grant_type: DEVICE_GRANT, device_code: started.device_code, client_id: 'sightline-cli' },
        });
        if (answer.status === 200) tokens = answer.body;
        else {
          expect(answer.body.error).toBe('authorization_pending');
          await decide('approve', userCode);
          clock.advance(started.interval * SECOND);
        }
      }
      expect(tokens).not.toBeNull();
      const whoAmI = await http(`${resource.resource}/api/me`, { token: tokens!.access_token });
      expect(whoAmI.body.user.id).toBe(user.user.id);

      const rotated = (
        await http(as.token_endpoint, { form: { grant_type: 'refresh_token', refresh_token: tokens!.refresh_token } })
      ).body;
      expect(rotated.refresh_token).not.toBe(tokens!.refresh_token);
      expect((await http(`${ISSUER}/api/me`, { token: rotated.access_token })).status).toBe(200);

      const replay = await http(as.token_endpoint, {
        form: { grant_type: 'refresh_token', refresh_token: tokens!.refresh_token },
      });
      expect(replay.body.error).toBe('invalid_grant');
      expect((await http(`${ISSUER}/api/me`, { token: rotated.access_token })).status).toBe(401);

      const fresh = await login();
      expect((await http(`${ISSUER}/api/auth/logout`, { form: { refresh_token: fresh.refresh_token } })).status).toBe(
        200,
      );
      expect((await http(`${ISSUER}/api/me`, { token: fresh.access_token })).status).toBe(401);
    });
  });
});
