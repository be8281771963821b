/**
 * Signing in with the built CLI against a real service: device login approved, denied and expired
 * (the test is the person at the dashboard, through POST /api/device/approve|deny), personal access
 * tokens, access-token refresh (the service clock moves past the 15-minute life), concurrent
 * refreshes sharing one rotation, reuse detection signing the CLI out, logout, profiles, and the
 * exit codes of not signed in, usage, cannot connect and rate limited.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort, listenOnLoopback } from '../support/loopback.js';
import { listeningTestService, registerUser, type ListeningTestService } from '../support/service.js';
import {
  MINUTE,
  OffsetClock,
  builtCli,
  jsonOf,
  newConfigDir,
  personalAccessToken,
  removeBuiltCli,
  runCli,
  startCli,
} from './helpers.js';

interface StoredFile {
  currentProfile: string;
  profiles: Record<
    string,
    {
      url: string;
      projectId?: string;
      credentials?: {
        kind: string;
        accessToken?: string;
        refreshToken?: string;
        accessTokenExpiresAt?: string;
        token?: string;
      };
    }
  >;
}

// Every case runs several CLI processes; on a shared, busy machine each can take seconds.
describe('sightline-cli sign-in', { timeout: 180_000 }, () => {
  const clock = new OffsetClock();
  let service: ListeningTestService;
  let user: Awaited<ReturnType<typeof registerUser>>;
  /** The device-login profile most tests continue from. */
  const deviceDir = newConfigDir();

  beforeAll(async () => {
    builtCli();
    service = await listeningTestService({}, { now: clock.now });
    user = await registerUser(service.app);
  });
  afterAll(async () => {
    await service?.close();
    removeBuiltCli();
  });

  const credentialsFile = (dir: string) => path.join(dir, 'credentials.json');
  const stored = (dir: string): StoredFile => JSON.parse(fs.readFileSync(credentialsFile(dir), 'utf8')) as StoredFile;
  const decide = (decision: 'approve' | 'deny', userCode: string) =>
    service.app.inject({
      method: 'POST',
      url: `/api/device/${decision}`,
      headers: { authorization: `Bearer ${user.token}` },
      payload: { user_code: userCode },
    });

  /** Starts `login`, reads the code it prints, and lets the test decide. */
  async function deviceLogin(configDir: string, decision: 'approve' | 'deny' | 'let expire') {
    const cli = startCli(['login', '--url', service.url, '--no-browser', '-o', 'table'], { configDir });
    const [, userCode] = await cli.waitFor('stderr', /enter the code ([A-Z]{4}-[A-Z]{4})/);
    if (decision === 'let expire') clock.advance(601_000);
    else expect((await decide(decision, userCode!)).statusCode).toBe(200);
    return cli.exited;
  }

  it('device login: prints the code and URL, and once approved in the dashboard stores the login 0600 in a 0700 folder', async () => {
    const result = await deviceLogin(deviceDir, 'approve');
    expect(result.stderr).toMatch(/To sign in, open \S+\/device and enter the code/);
    expect(result.stderr).toMatch(/Or open \S+\/device\?user_code=[A-Z]{4}-[A-Z]{4}/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`as ${user.user.email}`);
    expect(fs.statSync(credentialsFile(deviceDir)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(deviceDir).mode & 0o777).toBe(0o700);
    const profile = stored(deviceDir).profiles.default!;
    expect(profile).toMatchObject({ url: service.url, projectId: user.project.id, credentials: { kind: 'device' } });
    expect(profile.credentials!.refreshToken).toMatch(/^tpr_/);
    // Secrets stay in the file: neither the output nor the instructions show them.
    expect(result.stdout + result.stderr).not.toContain(profile.credentials!.refreshToken!);

    const whoami = await runCli(['whoami', '-o', 'json'], { configDir: deviceDir });
    expect(whoami.code).toBe(0);
    expect(jsonOf(whoami)).toMatchObject({
      profile: 'default',
      url: service.url,
      auth: 'device',
      user: { email: user.user.email },
      project: { id: user.project.id },
    });
    const table = await runCli(['whoami', '-o', 'table'], { configDir: deviceDir });
    expect(table.stdout).toContain(`<${user.user.email}> on ${service.url}`);
  });

  it('device login denied in the dashboard: exit 4, nothing stored', async () => {
    const configDir = newConfigDir();
    const result = await deviceLogin(configDir, 'deny');
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error: the sign-in was denied in the browser');
    expect(fs.existsSync(credentialsFile(configDir))).toBe(false);
  });

  it('device login left to expire (the service clock passes 600 s): exit 4', async () => {
    const configDir = newConfigDir();
    const result = await deviceLogin(configDir, 'let expire');
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error: the code expired before it was approved');
    expect(fs.existsSync(credentialsFile(configDir))).toBe(false);
  });

  it('refreshes on a 401 once the access token expired, and saves the rotated pair', async () => {
    const before = stored(deviceDir).profiles.default!.credentials!;
    clock.advance(16 * MINUTE);
    const result = await runCli(['whoami', '-o', 'json'], { configDir: deviceDir });
    expect(result.code).toBe(0);
    const after = stored(deviceDir).profiles.default!.credentials!;
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(fs.statSync(credentialsFile(deviceDir)).mode & 0o777).toBe(0o600);
  });

  it('refreshes before the access token expires by its own clock, without waiting for a 401', async () => {
    const file = stored(deviceDir);
    const credentials = file.profiles.default!.credentials!;
    // As if this machine's clock had moved 14.5 minutes on: the token has 30 s left.
    credentials.accessTokenExpiresAt = new Date(Date.now() + 30_000).toISOString();
    fs.writeFileSync(credentialsFile(deviceDir), JSON.stringify(file));
    const result = await runCli(['whoami'], { configDir: deviceDir });
    expect(result.code).toBe(0);
    expect(stored(deviceDir).profiles.default!.credentials!.refreshToken).not.toBe(credentials.refreshToken);
  });

  it('concurrent CLI processes needing a refresh share one rotation (the lock) and the login survives', async () => {
    clock.advance(16 * MINUTE);
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => runCli(['whoami', '-o', 'json'], { configDir: deviceDir })),
    );
    expect(results.map((result) => [result.code, result.stderr])).toEqual(results.map(() => [0, '']));
    expect((await runCli(['whoami'], { configDir: deviceDir })).code).toBe(0);
  });

  it('a reused refresh token (a stale copy of the file) signs the CLI out: exit 4, "signed out", run login', async () => {
    const stale = fs.readFileSync(credentialsFile(deviceDir), 'utf8');
    clock.advance(16 * MINUTE);
    expect((await runCli(['whoami'], { configDir: deviceDir })).code).toBe(0);
    // The copy's refresh token was rotated just now; presenting it again is theft to the service.
    fs.writeFileSync(credentialsFile(deviceDir), stale);
    clock.advance(16 * MINUTE);
    const result = await runCli(['whoami'], { configDir: deviceDir });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: signed out: .*already used.* — run `sightline-cli login`/);
    expect(stored(deviceDir).profiles.default).toEqual({
      url: service.url,
      projectId: user.project.id,
      projectName: expect.any(String),
    });
    const json = await runCli(['whoami', '-o', 'json'], { configDir: deviceDir });
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { message: 'not signed in (profile default)', exitCode: 4 },
    });
  });

  it('logout revokes the device login on the service and forgets it', async () => {
    const configDir = newConfigDir();
    expect((await deviceLogin(configDir, 'approve')).code).toBe(0);
    const refreshToken = stored(configDir).profiles.default!.credentials!.refreshToken!;
    const result = await runCli(['logout', '-o', 'table'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Signed out of ${service.url}`);
    expect(stored(configDir).profiles.default!.credentials).toBeUndefined();
    const refresh = await service.app.inject({
      method: 'POST',
      url: '/api/auth/device/token',
      payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await runCli(['whoami'], { configDir })).code).toBe(4);
    // A second logout has nothing to do: it says so and succeeds (a script may run it twice).
    const again = await runCli(['logout', '-o', 'table'], { configDir });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toBe(`Not signed in (profile default): nothing to do.\n`);
    const againJson = await runCli(['logout', '-o', 'json'], { configDir });
    expect(againJson.code).toBe(0);
    expect(jsonOf(againJson)).toEqual({ profile: 'default', url: service.url, signedOut: false });
    // Never signed in at all: the same.
    const never = await runCli(['logout', '--profile', 'nobody', '-o', 'json'], { configDir: newConfigDir() });
    expect(never.code).toBe(0);
    expect(jsonOf(never)).toEqual({ profile: 'nobody', url: null, signedOut: false });
  });

  it('token login (--token-stdin and --token), a refused token, and named profiles', async () => {
    const configDir = newConfigDir();
    const token = await personalAccessToken(service, user.token);
    const login = await runCli(['login', '--url', service.url, '--token-stdin'], { configDir, input: `${token}\n` });
    expect(login.code).toBe(0);
    expect(stored(configDir).profiles.default!.credentials).toEqual({ kind: 'token', token });
    expect(jsonOf(await runCli(['whoami', '-o', 'json'], { configDir }))).toMatchObject({
      auth: 'token',
      user: { email: user.user.email },
    });

    const refused = await runCli(
      ['login', '--url', service.url, '--token', 'tpp_not_a_real_token', '--profile', 'broken'],
      { configDir },
    );
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('the service refused the token');

    expect(
      (await runCli(['login', '--url', service.url, '--token', token, '--profile', 'second'], { configDir })).code,
    ).toBe(0);
    const profiles = jsonOf<Array<{ name: string; current: boolean; auth: string }>>(
      await runCli(['profiles', 'list', '-o', 'json'], { configDir }),
    );
    expect(profiles.map((p) => [p.name, p.current, p.auth])).toEqual([
      ['default', true, 'token'],
      ['second', false, 'token'],
    ]);
    expect((await runCli(['profiles', 'use', 'second'], { configDir })).code).toBe(0);
    expect(stored(configDir).currentProfile).toBe('second');
    const missing = await runCli(['profiles', 'use', 'nope'], { configDir });
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('no profile named "nope"');
  });

  it('exit codes: 2 on a usage error, 3 when nothing listens, 4 when not signed in', async () => {
    const configDir = newConfigDir();
    const usage = await runCli(['issues', 'list', '--bogus'], { configDir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("unknown option '--bogus'");
    expect(
      (await runCli(['logs', 'query', '--since', '1h', '--project', user.project.id], { configDir: deviceDir })).code,
    ).toBe(4);

    const closedPort = await freeLoopbackPort();
    const unreachable = await runCli(['login', '--url', `http://127.0.0.1:${closedPort}`, '--no-browser'], {
      configDir,
    });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain(`error: cannot connect to http://127.0.0.1:${closedPort} (ECONNREFUSED)`);

    const notSignedIn = await runCli(['issues', 'list'], { configDir });
    expect(notSignedIn.code).toBe(4);
    expect(notSignedIn.stderr).toContain('run `sightline-cli login`');

    expect((await runCli(['--help'], { configDir })).code).toBe(0);
    expect((await runCli(['issues'], { configDir })).code).toBe(2);
    const version = await runCli(['--version'], { configDir });
    expect([version.code, version.stdout.trim()]).toEqual([0, '0.1.0']);
  });

  /** A loopback HTTP server that is not Sightline: answers 404 to everything and keeps what it was sent. */
  async function strangerServer() {
    const received: Array<{ method?: string; url?: string; authorization?: string }> = [];
    const server = http.createServer((request, response) => {
      received.push({ method: request.method, url: request.url, authorization: request.headers.authorization });
      request.resume();
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    });
    const { url } = await listenOnLoopback(server);
    return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it('a --url or SIGHTLINE_URL naming another service is refused before any request: the credentials never leave', async () => {
    const stranger = await strangerServer();
    try {
      const tokenDir = newConfigDir();
      const token = await personalAccessToken(service, user.token);
      expect((await runCli(['login', '--url', service.url, '--token', token], { configDir: tokenDir })).code).toBe(0);
      const viaFlag = await runCli(['--url', stranger.url, 'issues', 'list', '-o', 'table'], { configDir: tokenDir });
      expect(viaFlag.code).toBe(2);
      expect(viaFlag.stderr).toBe(
        `error: profile default is signed in to ${service.url}, not ${stranger.url} (--url) — sign in there with \`sightline-cli login --url ${stranger.url} --profile <name>\`, or leave out --url\n`,
      );
      const viaEnv = await runCli(['whoami', '-o', 'json'], {
        configDir: tokenDir,
        env: { SIGHTLINE_URL: stranger.url },
      });
      expect(viaEnv.code).toBe(2);
      expect(JSON.parse(viaEnv.stderr)).toMatchObject({
        error: { message: `profile default is signed in to ${service.url}, not ${stranger.url} (SIGHTLINE_URL)` },
      });
      // The same service, spelled with a trailing slash, is the profile's own.
      const same = await runCli(['whoami', '-o', 'json'], {
        configDir: tokenDir,
        env: { SIGHTLINE_URL: `${service.url}/` },
      });
      expect(same.code).toBe(0);

      // A device login is not refreshed against the other host, so it is not signed out by its refusal.
      const device = newConfigDir();
      expect((await deviceLogin(device, 'approve')).code).toBe(0);
      clock.advance(16 * MINUTE);
      expect((await runCli(['--url', stranger.url, 'whoami'], { configDir: device })).code).toBe(2);
      expect(stranger.received).toEqual([]);
      expect((await runCli(['whoami'], { configDir: device })).code).toBe(0);
    } finally {
      await stranger.close();
    }
  });

  it('logging in again ends the device login it replaces on the service', async () => {
    const configDir = newConfigDir();
    expect((await deviceLogin(configDir, 'approve')).code).toBe(0);
    const first = stored(configDir).profiles.default!.credentials!.refreshToken!;
    expect((await deviceLogin(configDir, 'approve')).code).toBe(0);
    expect(stored(configDir).profiles.default!.credentials!.refreshToken).not.toBe(first);
    const refresh = await service.app.inject({
      method: 'POST',
      url: '/api/auth/device/token',
      payload: { grant_type: 'refresh_token', refresh_token: first },
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await runCli(['whoami'], { configDir })).code).toBe(0);
  });

  it('what a newcomer gets wrong: a broken credentials file, a profile typo, a URL that is not Sightline, an unknown project, a bad option', async () => {
    const configDir = newConfigDir();
    const token = await personalAccessToken(service, user.token);
    expect((await runCli(['login', '--url', service.url, '--token', token], { configDir })).code).toBe(0);

    const typo = await runCli(['whoami', '--profile', 'defualt'], { configDir });
    expect(typo.code).toBe(4);
    expect(typo.stderr).toContain(
      'error: no profile named "defualt" — `sightline-cli login --profile defualt` creates it',
    );

    const unknownProject = await runCli(['issues', 'list', '--project', '00000000-0000-4000-8000-000000000000'], {
      configDir,
    });
    expect(unknownProject.code).toBe(5);
    expect(unknownProject.stderr).toContain('no project "00000000-0000-4000-8000-000000000000" among yours');

    const refused = await runCli(['login', '--url', service.url, '--token', 'tpp_not_a_real_token', '-o', 'json'], {
      configDir: newConfigDir(),
    });
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: { exitCode: 4, status: 401 } });

    const stranger = await strangerServer();
    try {
      const notSightline = await runCli(['login', '--url', stranger.url, '--token', token], {
        configDir: newConfigDir(),
      });
      expect(notSightline.code).toBe(3);
      expect(notSightline.stderr).toContain(`error: no Sightline service at ${stranger.url} (it answered 404)`);
      expect(notSightline.stderr).toContain('without a path such as /api');
    } finally {
      await stranger.close();
    }
    const withPath = await runCli(['login', '--url', `${service.url}/api`, '--token', token], {
      configDir: newConfigDir(),
    });
    expect(withPath.code).toBe(3);
    expect(withPath.stderr).toContain(`no Sightline service at ${service.url}/api`);

    const badOption = await runCli(['issues', 'list', '--bogus'], { configDir });
    expect([badOption.code, badOption.stderr]).toEqual([2, "error: unknown option '--bogus' — add --help for usage\n"]);
    const badOptionJson = await runCli(['issues', 'list', '--bogus', '-o', 'json'], { configDir });
    expect(badOptionJson.code).toBe(2);
    expect(badOptionJson.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(badOptionJson.stderr)).toEqual({
      error: { message: "unknown option '--bogus'", hint: 'add --help for usage', exitCode: 2, status: null },
    });

    fs.writeFileSync(credentialsFile(configDir), 'not json');
    const broken = await runCli(['whoami'], { configDir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(
      `error: ${credentialsFile(configDir)} is not a credentials file of this CLI — remove it and run \`sightline-cli login\` again\n`,
    );
  });

  it('exit 6 once the device authorization rate limit (10 a minute per address) is spent', async () => {
    // Earlier logins' attempts leave the window, so ten fresh ones fill it and none frees a slot soon.
    clock.advance(2 * MINUTE);
    let status = 0;
    for (let i = 0; i < 11 && status !== 429; i++) {
      status = (
        await fetch(new URL('/api/auth/device/authorize', service.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status;
    }
    expect(status).toBe(429);
    const result = await runCli(['login', '--url', service.url, '--no-browser'], { configDir: newConfigDir() });
    expect(result.code).toBe(6);
    // The service's message already says how long to wait: one line, no second "wait" hint.
    expect(result.stderr).toMatch(/^error: Too many requests, try again in \d+s\n$/);
  });
});
