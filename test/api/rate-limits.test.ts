/**
 * Per-client-address limits of the authentication routes, with the memory and the Redis
 * coordination store: device authorize 10/min, password sign-in 10/min, register 10/min, token routes 60/min shared
 * by the device-code grant, the refresh grant and logout, password-reset requests 5/min, and
 * 20/min shared by the start and callback routes of social sign-in. Each 429 carries the real wait.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { bearer, call } from '../support/access.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const probe = new Redis(REDIS_URL, {
  lazyConnect: true,
  connectTimeout: 2000,
  maxRetriesPerRequest: 0,
  retryStrategy: () => null,
});
probe.on('error', () => {});
const redisReachable = await probe
  .connect()
  .then(() => probe.ping())
  .then(() => true)
  .catch(() => false);
const prefix = `sightline-test:rate-limits:${process.pid}-${randomBytes(4).toString('hex')}:`;
if (!redisReachable) console.warn(`rate limits: redis cases SKIPPED — no Redis reachable at ${REDIS_URL}`);

afterAll(async () => {
  if (!redisReachable) return;
  for (let cursor = '0'; ; ) {
    const [next, keys] = await probe.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await probe.del(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  await probe.quit();
});

const stores: Array<[name: string, env: Record<string, string>]> = [['memory', {}]];
if (redisReachable) stores.push(['redis', { REDIS_URL, REDIS_KEY_PREFIX: prefix }]);

/**
 * Mail and GitHub sign-in are configured but never reached by these requests (no mail goes to an
 * unknown address; start only builds the provider URL, a callback with an unknown state stops
 * before the provider), so both point at a closed loopback port.
 */
const identity = {
  SMTP_URL: 'smtp://127.0.0.1:9',
  GITHUB_CLIENT_ID: 'client',
  GITHUB_CLIENT_SECRET: 'secret',
  GITHUB_URL: 'http://127.0.0.1:9',
};

describe.each(stores)('rate limits (%s coordination store)', (_name, env) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ ...env, ...identity });
  });
  afterAll(async () => service?.close());

  // The wait is the window less the time since the oldest counted request, which came after the test began.
  let testStartedAt = 0;
  beforeEach(() => {
    testStartedAt = Date.now();
  });

  function expectLimited(response: Awaited<ReturnType<typeof call>>) {
    expect(response.status).toBe(429);
    const seconds = Number(/^Too many requests, try again in (\d+)s$/.exec(response.body!.error)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(Math.ceil((60_000 - (Date.now() - testStartedAt)) / 1000));
    expect(seconds).toBeLessThanOrEqual(60);
    expect(response.headers['retry-after']).toBe(String(seconds));
  }

  it('device authorize: 10 a minute per client address', async () => {
    const start = (ip: string) =>
      call(service.app, { method: 'POST', url: '/api/auth/device/authorize', remoteAddress: ip, payload: {} });
    for (let i = 0; i < 10; i++) expect((await start('192.0.2.10')).status).toBe(200);
    expectLimited(await start('192.0.2.10'));
    expect((await start('192.0.2.11')).status).toBe(200);
  });

  it('password sign-in: 10 a minute per client address', async () => {
    const signIn = (ip: string) =>
      call(service.app, {
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: 'nobody@example.com', password: 'wrong password' },
      });
    for (let i = 0; i < 10; i++) expect((await signIn('192.0.2.20')).status).toBe(401);
    expectLimited(await signIn('192.0.2.20'));
    expect((await signIn('192.0.2.21')).status).toBe(401);
  });

  it('password change: 10 a minute per client address, whatever the account', async () => {
    const user = await registerUser(service.app);
    const change = (ip: string) =>
      call(service.app, {
        method: 'POST',
        url: '/api/auth/password',
        remoteAddress: ip,
        headers: bearer(user.token),
        payload: { currentPassword: 'wrong password', newPassword: 'a brand new passphrase' },
      });
    for (let i = 0; i < 10; i++) expect((await change('192.0.2.30')).status).toBe(422);
    expectLimited(await change('192.0.2.30'));
    expect((await change('192.0.2.31')).status).toBe(422);
  });

  it('register: 10 a minute per client address, refused attempts included', async () => {
    const register = (ip: string, invitation?: object) =>
      call(service.app, {
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: ip,
        payload: {
          email: `new-${randomBytes(4).toString('hex')}@example.com`,
          password: 'correct horse battery',
          name: 'New',
          ...invitation,
        },
      });
    // Refused attempts count too (an unknown invitation is refused before any hashing).
    for (let i = 0; i < 9; i++)
      expect((await register('192.0.2.70', { invitationToken: 'tpi_unknown' })).status).toBe(404);
    expect((await register('192.0.2.70')).status).toBe(201);
    expectLimited(await register('192.0.2.70'));
    expect((await register('192.0.2.71')).status).toBe(201);
  });

  it('token routes: 60 a minute shared by the device-code grant, the refresh grant and logout', async () => {
    const ip = '192.0.2.30';
    const send = (url: string, payload: object) =>
      call(service.app, { method: 'POST', url, remoteAddress: ip, payload });
    const deviceGrant = () => send('/api/auth/device/token', { grant_type: 'device_code', device_code: 'tpd_unknown' });
    const refreshGrant = () =>
      send('/api/auth/device/token', { grant_type: 'refresh_token', refresh_token: 'tpr_unknown' });
    const logout = () => send('/api/auth/logout', { refresh_token: 'tpr_unknown' });
    for (let i = 0; i < 20; i++) {
      expect((await deviceGrant()).status).toBe(400);
      expect((await refreshGrant()).status).toBe(400);
      expect((await logout()).status).toBe(200);
    }
    expectLimited(await deviceGrant());
    expectLimited(await refreshGrant());
    expectLimited(await logout());
  });

  it('password-reset requests: 5 a minute per client address', async () => {
    const ask = (ip: string) =>
      call(service.app, {
        method: 'POST',
        url: '/api/auth/password-reset',
        remoteAddress: ip,
        payload: { email: 'nobody@example.com' },
      });
    for (let i = 0; i < 5; i++) expect((await ask('192.0.2.50')).status).toBe(202);
    expectLimited(await ask('192.0.2.50'));
    expect((await ask('192.0.2.51')).status).toBe(202);
    // Confirming a link is not this limit's business (the token is unguessable and used once).
    const confirm = await call(service.app, {
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      remoteAddress: '192.0.2.50',
      payload: { token: 'x', password: 'a long enough password' },
    });
    expect(confirm.status).toBe(422);
  });

  it('social sign-in: 20 a minute per client address, shared by start and callback', async () => {
    const ip = '192.0.2.60';
    const start = () => call(service.app, { method: 'GET', url: '/api/auth/oauth/github/start', remoteAddress: ip });
    const callback = () =>
      call(service.app, {
        method: 'GET',
        url: `/api/auth/oauth/github/callback?code=c&state=${'A'.repeat(43)}`,
        remoteAddress: ip,
      });
    for (let i = 0; i < 10; i++) {
      expect((await start()).status).toBe(302);
      expect((await callback()).status).toBe(302);
    }
    expectLimited(await start());
    expectLimited(await callback());
    expect(
      (await call(service.app, { method: 'GET', url: '/api/auth/oauth/github/start', remoteAddress: '192.0.2.61' }))
        .status,
    ).toBe(302);
  });

  it('ordinary authenticated calls are not limited', async () => {
    const { token } = await registerUser(service.app);
    for (let i = 0; i < 70; i++) {
      expect(
        (
          await call(service.app, {
            method: 'GET',
            url: '/api/me',
            remoteAddress: '192.0.2.40',
            headers: bearer(token),
          })
        ).status,
      ).toBe(200);
    }
  });
});

describe('rate limits of the memory coordination store', () => {
  it('follow the service clock: a spent limit frees once the service clock passes the window', async () => {
    let offsetMs = 0;
    const service = await startTestService(identity, { now: () => Date.now() + offsetMs });
    try {
      const start = () =>
        call(service.app, {
          method: 'POST',
          url: '/api/auth/device/authorize',
          remoteAddress: '192.0.2.50',
          payload: {},
        });
      for (let i = 0; i < 10; i++) expect((await start()).status).toBe(200);
      expect((await start()).status).toBe(429);
      offsetMs += 61_000;
      expect((await start()).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});
