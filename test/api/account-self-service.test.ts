/**
 * What a signed-in person manages about themself: their CLI logins (list and revoke the device
 * logins' refresh-token families), their display name, and signing out (the session token ends
 * on the server, not only in the browser); and whether a project has received data yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBatch, sendDemoBatch } from '../../src/demo/demo-data.js';
import {
  listeningTestService,
  registerUser,
  startTestService,
  type ListeningTestService,
  type TestService,
} from '../support/service.js';
import {
  MINUTE,
  TestClock,
  bearer,
  call,
  createPersonalAccessToken,
  deviceLogin as deviceLoginThrough,
} from '../support/access.js';

describe('account self-service', () => {
  const clock = new TestClock();
  let service: TestService;
  let ada: Awaited<ReturnType<typeof registerUser>>;
  let grace: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    service = await startTestService({}, { now: clock.now });
    ada = await registerUser(service.app, { name: 'Ada' });
    grace = await registerUser(service.app, { name: 'Grace' });
  });
  afterAll(async () => service?.close());

  let addresses = 0;
  const CLI_USER_AGENT = 'sightline-cli/0.1.0 node/20.19.0 linux';
  const deviceLogin = (approver: string) =>
    deviceLoginThrough(service.app, approver, `198.51.100.${++addresses}`, CLI_USER_AGENT);
  const refresh = (refreshToken: string) =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/device/token',
      payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
    });
  const listLogins = (token: string) =>
    call(service.app, { method: 'GET', url: '/api/auth/device-sessions', headers: bearer(token) });
  const revokeLogin = (token: string, id: string) =>
    call(service.app, { method: 'DELETE', url: `/api/auth/device-sessions/${id}`, headers: bearer(token) });
  const me = (token: string) => call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });

  describe('CLI logins (device sessions)', () => {
    it('lists a login after a real device flow: client, created, last used (the latest refresh), expiry', async () => {
      const approvedAt = clock.now();
      const login = await deviceLogin(ada.token);
      const listed = await listLogins(ada.token);
      expect(listed.status).toBe(200);
      expect(listed.body!.sessions).toHaveLength(1);
      const [session] = listed.body!.sessions;
      // Where it came from, as the approval page showed it (before: not kept with the login).
      expect(session).toMatchObject({
        clientId: 'sightline-cli',
        clientName: 'Sightline CLI',
        requesterIp: login.remoteAddress,
        requesterUserAgent: CLI_USER_AGENT,
      });
      expect(Date.parse(session.createdAt)).toBe(approvedAt);
      expect(Date.parse(session.lastUsedAt)).toBe(approvedAt);
      expect(Date.parse(session.expiresAt)).toBe(approvedAt + 90 * 24 * 3600_000);
      expect(listed.raw).not.toContain(login.refresh_token);

      // A refresh is a use: last used and the expiry move, the login stays one entry.
      clock.advance(20 * MINUTE);
      expect((await refresh(login.refresh_token)).status).toBe(200);
      const after = (await listLogins(ada.token)).body!.sessions;
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: session.id, createdAt: session.createdAt });
      expect(Date.parse(after[0].lastUsedAt)).toBe(clock.now());
      expect(Date.parse(after[0].expiresAt)).toBe(clock.now() + 90 * 24 * 3600_000);
    });

    it('revoking a login ends it: its refresh token and access token are refused, and it leaves the list', async () => {
      clock.advance(MINUTE); // so this login is the one last used now
      const login = await deviceLogin(ada.token);
      const id = (await listLogins(ada.token)).body!.sessions.find(
        (s: { lastUsedAt: string }) => Date.parse(s.lastUsedAt) === clock.now(),
      )!.id as string;
      expect((await me(login.access_token)).status).toBe(200);
      const before = (await listLogins(ada.token)).body!.sessions.length;

      expect(await revokeLogin(ada.token, id)).toMatchObject({ status: 200, body: { status: 'revoked' } });
      expect(await refresh(login.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect((await me(login.access_token)).status).toBe(401);
      const listed = (await listLogins(ada.token)).body!.sessions as Array<{ id: string }>;
      expect(listed).toHaveLength(before - 1);
      expect(listed.map((s) => s.id)).not.toContain(id);
      // Revoking it again: no such active login.
      expect(await revokeLogin(ada.token, id)).toMatchObject({
        status: 404,
        body: { error: 'no active CLI login of yours has this id' },
      });
    });

    it('another user never sees a login in their list and gets 404 revoking it; the login keeps working', async () => {
      const login = await deviceLogin(ada.token);
      const adas = (await listLogins(ada.token)).body!.sessions as Array<{ id: string }>;
      const graces = (await listLogins(grace.token)).body!.sessions as Array<{ id: string }>;
      expect(graces).toEqual([]);
      for (const { id } of adas)
        expect(await revokeLogin(grace.token, id)).toMatchObject({
          status: 404,
          body: { error: 'no active CLI login of yours has this id' },
        });
      expect((await refresh(login.refresh_token)).status).toBe(200);
      expect((await listLogins(ada.token)).body!.sessions).toHaveLength(adas.length);
    });

    it('an id that is not a UUID is 404, not a server error', async () => {
      expect(await revokeLogin(ada.token, 'not-a-uuid')).toMatchObject({ status: 404 });
    });

    it('needs a signed-in person: 401 (empty) without credentials; a personal access token may; a device token may not (403)', async () => {
      for (const headers of [{}, bearer('not-a-token')]) {
        const listed = await call(service.app, { method: 'GET', url: '/api/auth/device-sessions', headers });
        expect(listed).toMatchObject({ status: 401, raw: '' });
        const revoked = await call(service.app, {
          method: 'DELETE',
          url: '/api/auth/device-sessions/00000000-0000-4000-8000-000000000000',
          headers,
        });
        expect(revoked).toMatchObject({ status: 401, raw: '' });
      }
      const pat = await createPersonalAccessToken(service.app, ada.token, 'script');
      expect((await listLogins(pat)).status).toBe(200);
      const login = await deviceLogin(ada.token);
      expect(await listLogins(login.access_token)).toMatchObject({
        status: 403,
        body: { error: 'this needs a dashboard session' },
      });
      const some = (await listLogins(ada.token)).body!.sessions[0].id as string;
      expect((await revokeLogin(login.access_token, some)).status).toBe(403);
    });

    it('a password change ends every login, so the list is empty after it', async () => {
      await deviceLogin(grace.token);
      expect((await listLogins(grace.token)).body!.sessions).toHaveLength(1);
      const changed = await call(service.app, {
        method: 'POST',
        url: '/api/auth/password',
        headers: bearer(grace.token),
        payload: { currentPassword: 'correct horse battery', newPassword: 'another horse battery' },
      });
      expect(changed.status).toBe(200);
      grace = { ...grace, token: changed.body!.token };
      expect((await listLogins(grace.token)).body!.sessions).toEqual([]);
    });
  });

  describe('profile: PATCH /api/me', () => {
    const rename = (token: string, payload: unknown) =>
      call(service.app, {
        method: 'PATCH',
        url: '/api/me',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });

    it('changes the display name (trimmed) and answers the user; /api/me shows it', async () => {
      const renamed = await rename(ada.token, { name: '  Ada Lovelace ' });
      expect(renamed).toMatchObject({
        status: 200,
        body: { user: { id: ada.user.id, email: ada.user.email, name: 'Ada Lovelace' } },
      });
      expect((await me(ada.token)).body!.user.name).toBe('Ada Lovelace');
    });

    // The service's schemas coerce scalars (42 becomes "42"), as on every route; an object is no name.
    it('a malformed body is 400, a name out of bounds 422, each naming what was wrong', async () => {
      for (const body of [{}, { name: { first: 'Ada' } }, []]) {
        const answer = await rename(ada.token, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body!.error).toMatch(/^invalid request: body/);
      }
      for (const name of ['', '   ', 'x'.repeat(201)]) {
        expect(await rename(ada.token, { name })).toMatchObject({
          status: 422,
          body: { error: 'name must be 1 to 200 characters (after trimming spaces)' },
        });
      }
      expect((await me(ada.token)).body!.user.name).toBe('Ada Lovelace');
    });

    it('only changes the caller; 401 without credentials; a device token may not (403)', async () => {
      expect((await rename(grace.token, { name: 'Grace Hopper' })).body!.user.id).toBe(grace.user.id);
      expect((await me(ada.token)).body!.user.name).toBe('Ada Lovelace');
      const anonymous = await call(service.app, { method: 'PATCH', url: '/api/me', payload: { name: 'Nobody' } });
      expect(anonymous).toMatchObject({ status: 401, raw: '' });
      const login = await deviceLogin(ada.token);
      expect((await rename(login.access_token, { name: 'From a device' })).status).toBe(403);
    });
  });

  describe('sign-out: POST /api/auth/sign-out', () => {
    const signOut = (headers: Record<string, string>) =>
      call(service.app, { method: 'POST', url: '/api/auth/sign-out', headers });
    const signIn = async () =>
      (
        await call(service.app, {
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '192.0.2.50',
          payload: { email: ada.user.email, password: 'correct horse battery' },
        })
      ).body!.token as string;

    it('ends the session token it carries (401 afterwards) and no other; again is 204 too', async () => {
      const first = await signIn();
      const second = await signIn();
      expect((await me(first)).status).toBe(200);
      const ended = await signOut(bearer(first));
      expect(ended).toMatchObject({ status: 204, raw: '' });
      expect(await me(first)).toMatchObject({ status: 401, raw: '' });
      expect((await me(second)).status).toBe(200);
      expect((await signOut(bearer(first))).status).toBe(204);
      expect((await me(first)).status).toBe(401);
    });

    it('a CLI password token ends the same way; a device access token ends its whole login', async () => {
      const cli = (
        await call(service.app, {
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '192.0.2.51',
          payload: { email: ada.user.email, password: 'correct horse battery', clientId: 'sightline-cli' },
        })
      ).body!.token as string;
      expect((await signOut(bearer(cli))).status).toBe(204);
      expect((await me(cli)).status).toBe(401);
      const login = await deviceLogin(ada.token);
      expect((await signOut(bearer(login.access_token))).status).toBe(204);
      expect((await me(login.access_token)).status).toBe(401);
      expect(await refresh(login.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    });

    it('leaves personal access tokens alone; unknown or expired tokens answer 204; no credential 401', async () => {
      const pat = await createPersonalAccessToken(service.app, ada.token, 'kept');
      expect((await signOut(bearer(pat))).status).toBe(204);
      expect((await me(pat)).status).toBe(200);
      expect((await signOut(bearer('not-a-token'))).status).toBe(204);
      expect(await signOut({})).toMatchObject({ status: 401, raw: '' });
    });
  });
});

describe('whether a project has received data: GET /api/projects/data-status', () => {
  let service: ListeningTestService;

  beforeAll(async () => {
    service = await listeningTestService();
  });
  afterAll(async () => service?.close());

  it('says nothing arrived yet, then the newest event once a demo batch went through the real ingest routes; scoped to the project', async () => {
    const owner = await registerUser(service.app);
    const stranger = await registerUser(service.app);
    const status = (token: string, projectId = owner.project.id) =>
      call(service.app, {
        method: 'GET',
        url: `/api/projects/data-status?projectId=${projectId}`,
        headers: bearer(token),
      });
    expect(await status(owner.token)).toMatchObject({
      status: 200,
      body: { lastEventAt: null, hasData: false, expiredData: false },
    });

    const now = Date.now();
    await sendDemoBatch(service.url, owner.project.token, demoBatch({ now, spanMs: 5000, calls: 20, session: false }));
    const answer = await status(owner.token);
    expect(answer.status).toBe(200);
    expect(answer.body!.hasData).toBe(true);
    const last = Date.parse(answer.body!.lastEventAt);
    expect(last).toBeGreaterThan(now - 60_000);
    expect(last).toBeLessThanOrEqual(now + 5_000);

    // The stranger's own project is still empty, and the owner's is not theirs to read.
    expect((await status(stranger.token, stranger.project.id)).body).toEqual({
      lastEventAt: null,
      hasData: false,
      expiredData: false,
    });
    expect(await status(stranger.token)).toMatchObject({ status: 403, body: { error: 'Access denied' } });
    expect(
      (await call(service.app, { method: 'GET', url: `/api/projects/data-status?projectId=${owner.project.id}` }))
        .status,
    ).toBe(401);
  });

  it('a project whose data is older than a day holds data but is not receiving', async () => {
    const owner = await registerUser(service.app);
    await sendDemoBatch(
      service.url,
      owner.project.token,
      demoBatch({ now: Date.now() - 3 * 24 * 3600_000, spanMs: 5000, calls: 5, session: false }),
    );
    const answer = await call(service.app, {
      method: 'GET',
      url: `/api/projects/data-status?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
    });
    expect(answer.body).toEqual({ lastEventAt: null, hasData: true, expiredData: false });
  });
});
