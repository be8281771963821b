/**
 * Where a person is signed in: their dashboard sessions and CLI password logins are recorded at
 * sign-in (address, User-Agent), listed with the current one marked, ended one at a time or all
 * but the current one (which also ends their CLI device logins); an ended token is refused at once
 * on every route. The same cases run on both metadata engines (PGlite, and PostgreSQL at
 * 127.0.0.1:5432 in a scratch database, skipped with a message when unreachable).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresQuery, postgresUnavailable, postgresUrl } from '../support/postgres.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { DAY, MINUTE, TestClock, bearer, call, createPersonalAccessToken, deviceLogin } from '../support/access.js';

const PASSWORD = 'correct horse battery';
const FIREFOX_ON_MACOS = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0';
const CLI_USER_AGENT = 'sightline-cli/0.1.0 node/20.19.0 linux';

const postgresMissing = await postgresUnavailable();
if (postgresMissing) console.warn(`account sessions on PostgreSQL SKIPPED — ${postgresMissing}`);
const scratch = `sightline_sessions_${randomBytes(6).toString('hex')}`;

describe.each([
  { engine: 'PGlite', skip: false, database: null },
  { engine: 'PostgreSQL', skip: postgresMissing !== null, database: scratch },
])('account sessions ($engine)', ({ skip, database }) => {
  const clock = new TestClock();
  let service: TestService;
  let ada: Awaited<ReturnType<typeof registerUser>>;
  let grace: Awaited<ReturnType<typeof registerUser>>;
  /** Every statement the metadata store is sent, in order. */
  const statements: string[] = [];

  beforeAll(async () => {
    if (skip) return;
    const env: Record<string, string> = {};
    if (database) {
      await postgresQuery(`CREATE DATABASE ${database}`);
      env.DATABASE_URL = postgresUrl(database);
    }
    service = await startTestService(env, { now: clock.now });
    const { meta } = service.services;
    const query = meta.query.bind(meta);
    meta.query = (sql, params) => {
      statements.push(sql);
      return query(sql, params);
    };
    ada = await registerUser(service.app, { name: 'Ada' });
    grace = await registerUser(service.app, { name: 'Grace' });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    if (database && !skip) await postgresQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  let addresses = 0;
  /** A password sign-in (a dashboard session, or a CLI token with `cli`) from an address of its own. */
  async function signIn(email: string, options: { cli?: boolean; userAgent?: string } = {}) {
    const remoteAddress = `203.0.113.${++addresses}`;
    const answer = await call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      headers: options.userAgent ? { 'user-agent': options.userAgent } : {},
      payload: { email, password: PASSWORD, ...(options.cli ? { clientId: 'sightline-cli' } : {}) },
    });
    expect(answer.status).toBe(200);
    return { token: answer.body!.token as string, remoteAddress };
  }
  const list = (token: string) =>
    call(service.app, { method: 'GET', url: '/api/auth/sessions', headers: bearer(token) });
  const end = (token: string, id: string) =>
    call(service.app, { method: 'DELETE', url: `/api/auth/sessions/${id}`, headers: bearer(token) });
  const endOthers = (token: string) =>
    call(service.app, { method: 'POST', url: '/api/auth/sessions/end-others', headers: bearer(token) });
  const me = (token: string) => call(service.app, { method: 'GET', url: '/api/me', headers: bearer(token) });
  const projects = (token: string) =>
    call(service.app, { method: 'GET', url: '/api/projects', headers: bearer(token) });
  const sessionsOf = async (token: string) => (await list(token)).body!.sessions as Array<Record<string, unknown>>;

  it.skipIf(skip)(
    'lists dashboard sessions and CLI password logins with where they came from, the current one marked',
    async () => {
      clock.advance(MINUTE);
      const browser = await signIn(ada.user.email, { userAgent: FIREFOX_ON_MACOS });
      clock.advance(MINUTE);
      const cli = await signIn(ada.user.email, { cli: true, userAgent: CLI_USER_AGENT });
      const signedInAt = new Date(clock.now());
      const answer = await list(browser.token);
      expect(answer.status).toBe(200);
      const sessions = answer.body!.sessions as Array<Record<string, unknown>>;
      // Newest first: the CLI login, the browser, then the registration's own session.
      expect(sessions.map((s) => [s.kind, s.current, s.ip])).toEqual([
        ['cli', false, cli.remoteAddress],
        ['session', true, browser.remoteAddress],
        ['session', false, expect.any(String)],
      ]);
      expect(sessions[0]).toMatchObject({
        userAgent: CLI_USER_AGENT,
        createdAt: new Date(Math.floor(signedInAt.getTime() / 1000) * 1000).toISOString(),
        lastUsedAt: new Date(Math.floor(signedInAt.getTime() / 1000) * 1000).toISOString(),
      });
      expect(sessions[1]).toMatchObject({ userAgent: FIREFOX_ON_MACOS });
      // A week of life (SESSION_TTL_HOURS), from the sign-in's whole second.
      expect(Date.parse(sessions[1]!.expiresAt as string) - Date.parse(sessions[1]!.createdAt as string)).toBe(7 * DAY);
      expect(answer.headers['cache-control']).toBeUndefined();
      // Never another user's.
      const graces = await sessionsOf(grace.token);
      expect(graces).toHaveLength(1);
      expect(graces[0]).toMatchObject({ current: true });
    },
  );

  it.skipIf(skip)(
    "ending one session refuses its token at once on every route; the caller's session stays; again is 404",
    async () => {
      const current = await signIn(ada.user.email);
      const other = await signIn(ada.user.email);
      const id = (await sessionsOf(current.token)).find((s) => s.ip === other.remoteAddress)!.id as string;
      expect((await projects(other.token)).status).toBe(200);
      expect(await end(current.token, id)).toMatchObject({ status: 200, body: { status: 'ended' } });
      expect(await projects(other.token)).toMatchObject({ status: 401, raw: '' });
      expect(await me(other.token)).toMatchObject({ status: 401, raw: '' });
      expect((await projects(current.token)).status).toBe(200);
      expect((await sessionsOf(current.token)).some((s) => s.id === id)).toBe(false);
      expect(await end(current.token, id)).toMatchObject({
        status: 404,
        body: { error: 'no session of yours has this id' },
      });
      expect((await end(current.token, 'x'.repeat(65))).status).toBe(400);
    },
  );

  it.skipIf(skip)("another user's session id is 404 and that session keeps working", async () => {
    const adas = await signIn(ada.user.email);
    const id = (await sessionsOf(adas.token)).find((s) => s.current)!.id as string;
    expect(await end(grace.token, id)).toMatchObject({
      status: 404,
      body: { error: 'no session of yours has this id' },
    });
    expect((await me(adas.token)).status).toBe(200);
    expect((await sessionsOf(grace.token)).some((s) => s.id === id)).toBe(false);
  });

  it.skipIf(skip)(
    'ending the others ends every other session, CLI password login and CLI device login; the current one stays',
    async () => {
      const user = await registerUser(service.app);
      const current = await signIn(user.user.email);
      const cli = await signIn(user.user.email, { cli: true });
      const device = await deviceLogin(service.app, current.token, '198.51.100.90');
      const graces = await signIn(grace.user.email);
      expect(await endOthers(current.token)).toMatchObject({
        status: 200,
        // The registration's session and the CLI password login; the device login.
        body: { endedSessions: 2, revokedDeviceLogins: 1 },
      });
      for (const ended of [user.token, cli.token, device.access_token])
        expect(await me(ended)).toMatchObject({ status: 401, raw: '' });
      expect(
        await call(service.app, {
          method: 'POST',
          url: '/api/auth/device/token',
          payload: { grant_type: 'refresh_token', refresh_token: device.refresh_token },
        }),
      ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect((await me(current.token)).status).toBe(200);
      expect((await sessionsOf(current.token)).map((s) => s.current)).toEqual([true]);
      expect(
        (await call(service.app, { method: 'GET', url: '/api/auth/device-sessions', headers: bearer(current.token) }))
          .body,
      ).toEqual({ sessions: [] });
      // Another user's sessions are not touched.
      expect((await me(graces.token)).status).toBe(200);
      expect(await endOthers(current.token)).toMatchObject({ body: { endedSessions: 0, revokedDeviceLogins: 0 } });
    },
  );

  it.skipIf(skip)(
    'needs a dashboard session or a personal access token (none current): 401 without, 403 for CLI and device tokens',
    async () => {
      const user = await registerUser(service.app);
      for (const answer of [
        await call(service.app, { method: 'GET', url: '/api/auth/sessions' }),
        await call(service.app, { method: 'POST', url: '/api/auth/sessions/end-others' }),
      ])
        expect(answer).toMatchObject({ status: 401, raw: '' });
      clock.advance(MINUTE);
      const cli = await signIn(user.user.email, { cli: true });
      const device = await deviceLogin(service.app, user.token, '198.51.100.91');
      for (const token of [cli.token, device.access_token]) {
        expect(await list(token)).toMatchObject({ status: 403, body: { error: 'this needs a dashboard session' } });
        expect((await endOthers(token)).status).toBe(403);
        expect((await end(token, 'anything')).status).toBe(403);
      }
      const pat = await createPersonalAccessToken(service.app, user.token, 'script');
      expect((await sessionsOf(pat)).map((s) => [s.kind, s.current])).toEqual([
        ['cli', false],
        ['session', false],
      ]);
      // With a personal access token no session is the caller's: all end; the token itself stays.
      expect(await endOthers(pat)).toMatchObject({ status: 200, body: { endedSessions: 2, revokedDeviceLogins: 1 } });
      expect((await me(user.token)).status).toBe(401);
      expect((await me(pat)).status).toBe(200);
    },
  );

  it.skipIf(skip)(
    'signing out and a password change end sessions the same way: their rows go, their tokens are refused',
    async () => {
      const user = await registerUser(service.app);
      const other = await signIn(user.user.email);
      expect(
        (await call(service.app, { method: 'POST', url: '/api/auth/sign-out', headers: bearer(other.token) })).status,
      ).toBe(204);
      expect((await me(other.token)).status).toBe(401);
      expect((await sessionsOf(user.token)).map((s) => s.ip)).not.toContain(other.remoteAddress);
      const another = await signIn(user.user.email);
      const changed = await call(service.app, {
        method: 'POST',
        url: '/api/auth/password',
        headers: bearer(user.token),
        payload: { currentPassword: PASSWORD, newPassword: PASSWORD },
      });
      expect(changed.status).toBe(200);
      for (const ended of [user.token, another.token]) expect((await me(ended)).status).toBe(401);
      const kept = await sessionsOf(changed.body!.token as string);
      expect(kept.map((s) => s.current)).toEqual([true]);
    },
  );

  it.skipIf(skip)(
    'last activity: a request adds no statement of its own; after five minutes one write covers many requests',
    async () => {
      const user = await registerUser(service.app);
      const { token, remoteAddress } = await signIn(user.user.email);
      const counted = async () => {
        statements.length = 0;
        expect((await projects(token)).status).toBe(200);
        return [...statements];
      };
      const first = await counted();
      clock.advance(MINUTE);
      expect(await counted()).toEqual(first);
      // The session lookup is the request's only statement on user_sessions, and nothing is written.
      expect(first.filter((sql) => sql.includes('user_sessions'))).toHaveLength(1);
      expect(first.some((sql) => /^\s*(UPDATE|INSERT|DELETE)/i.test(sql))).toBe(false);

      clock.advance(5 * MINUTE);
      for (let i = 0; i < 3; i++) expect(await counted()).toEqual(first);
      const usedAt = new Date(clock.now());
      statements.length = 0;
      await service.services.sessionUse.flush();
      expect(statements.filter((sql) => sql.includes('UPDATE user_sessions'))).toHaveLength(1);
      const listed = (await sessionsOf(user.token)).find((s) => s.ip === remoteAddress);
      expect(listed?.lastUsedAt).toBe(usedAt.toISOString());
    },
  );

  it.skipIf(skip)(
    'expired sessions are listed no more and their rows are pruned by the session expiry job',
    async () => {
      const user = await registerUser(service.app);
      await signIn(user.user.email);
      const countRows = async () =>
        (
          await service.services.meta.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM user_sessions WHERE user_id = $1',
            [user.user.id],
          )
        )[0]!.n;
      expect(await countRows()).toBe(2);
      clock.advance(8 * DAY); // past SESSION_TTL_HOURS (a week)
      const fresh = await signIn(user.user.email);
      expect((await sessionsOf(fresh.token)).map((s) => s.current)).toEqual([true]);
      expect(await service.services.sessionExpiry.runOnce()).toBeGreaterThanOrEqual(2);
      expect(await countRows()).toBe(1);
    },
  );
});
