/**
 * Route inventory of the application surface. Every route the surface registers is collected
 * (an onRoute hook on an instance that registers the same plugin), so a route added later is
 * probed without anyone listing it. Apart from an explicit public allow-list, every route must
 * answer 401 with an empty body to a missing, malformed, expired, revoked or unknown credential
 * and to a credential of another kind (project, upload or refresh token). A user route must also,
 * unless it only concerns the caller (an explicit list), answer 403 `Access denied` to a member of
 * another organization and 403 to a member of a suspended organization (billing excepted).
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceProjectChanges } from '../../src/api/project-changes.js';
import { applicationSurface } from '../../src/api/surface.js';
import { suspendOrganization } from '../../src/store/meta/repositories/organizations.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { DAY, TestClock, bearer, call } from './helpers.js';

/** Routes anyone may call: signing up and in, the device grant, discovery, the plan catalogue, the payment webhook. */
const PUBLIC = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  // Password reset: for people who cannot sign in; the request answers alike for every address, the confirm needs the mailed token.
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  // What the sign-in page offers (no account data).
  'GET /api/auth/providers',
  // Social sign-in: the browser arrives without a credential; the callback needs the state of its own start.
  'GET /api/auth/oauth/:provider/start',
  'GET /api/auth/oauth/:provider/callback',
  'POST /api/auth/device/authorize',
  'POST /api/auth/device/token',
  'POST /api/auth/logout',
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/oauth-protected-resource',
  'GET /api/billing/plans',
  'POST /api/billing/stripe/webhook',
]);

/** Authenticated routes about the caller alone, with no project or organization to refuse. */
const CALLER_ONLY = new Set([
  'GET /api/me',
  'POST /api/personal-access-tokens',
  'GET /api/personal-access-tokens',
  'DELETE /api/personal-access-tokens/:id',
  'GET /api/projects',
  'GET /api/device',
  'POST /api/device/approve',
  'POST /api/device/deny',
  'POST /api/invitations/accept',
  // Searches only the projects the caller can read (the spec's /distributed-traces/<id> page has no projectId).
  'GET /api/distributed-traces/:id',
]);

/**
 * Routes whose only credential is not a user's (the symbol upload takes a project's upload token):
 * every other credential, a valid user session included, is 401 there.
 */
const OWN_CREDENTIAL = new Map([['POST /api/symbols/upload', 'project upload token']]);

/** Where a suspended organization's admins settle the account. */
const REACHABLE_WHEN_SUSPENDED = /^[A-Z]+ \/api\/billing\//;

interface Route {
  method: string;
  url: string;
}
const keyOf = (route: Route) => `${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`;

describe('route inventory of the application surface', () => {
  const clock = new TestClock();
  let service: TestService;
  const routes: Route[] = [];
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let stranger: Awaited<ReturnType<typeof registerUser>>;
  const badCredentials: Array<[label: string, authorization: string | undefined]> = [];

  async function deviceLogin(sessionToken: string, address: string) {
    const started = (await call(service.app, { method: 'POST', url: '/api/auth/device/authorize', remoteAddress: address, payload: {} })).body!;
    await call(service.app, { method: 'POST', url: '/api/device/approve', headers: bearer(sessionToken), payload: { user_code: started.user_code } });
    const tokens = await call(service.app, { method: 'POST', url: '/api/auth/device/token', remoteAddress: address, payload: { grant_type: 'device_code', device_code: started.device_code } });
    expect(tokens.status).toBe(200);
    return tokens.body!;
  }
  const createPat = async (sessionToken: string, payload: object) =>
    (await call(service.app, { method: 'POST', url: '/api/personal-access-tokens', headers: bearer(sessionToken), payload })).body!;

  beforeAll(async () => {
    service = await startTestService({ SESSION_TTL_HOURS: '1' }, { now: clock.now });

    const inventory = Fastify();
    inventory.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
    await inventory.register(async (scope) => applicationSurface(scope, service.services));
    await inventory.ready();
    await inventory.close();

    // Credentials that expire: made first, then the clock passes every expiry.
    const early = await registerUser(service.app);
    const expiredPat = (await createPat(early.token, { name: 'short', expiresInDays: 1 })).token;
    const expiredDevice = (await deviceLogin(early.token, '192.0.2.1')).access_token;
    clock.advance(2 * DAY);

    owner = await registerUser(service.app);
    stranger = await registerUser(service.app);
    const revokedPat = await createPat(owner.token, { name: 'revoked' });
    await call(service.app, { method: 'DELETE', url: `/api/personal-access-tokens/${revokedPat.id}`, headers: bearer(owner.token) });
    const loggedOut = await deviceLogin(owner.token, '192.0.2.2');
    await call(service.app, { method: 'POST', url: '/api/auth/logout', payload: { refresh_token: loggedOut.refresh_token } });
    const connection = (await call(service.app, { method: 'GET', url: `/api/projects/connection?projectId=${owner.project.id}`, headers: bearer(owner.token) })).body!;

    badCredentials.push(
      ['no Authorization header', undefined],
      ['"Bearer" without the space', `Bearer${owner.token}`],
      ['"bearer" in lower case', `bearer ${owner.token}`],
      ['Basic scheme', `Basic ${Buffer.from('user:password').toString('base64')}`],
      ['token without a scheme', owner.token],
      ['empty bearer', 'Bearer '],
      ['expired session token', `Bearer ${early.token}`],
      ['expired personal access token', `Bearer ${expiredPat}`],
      ['expired device access token', `Bearer ${expiredDevice}`],
      ['revoked personal access token', `Bearer ${revokedPat.token}`],
      ['device access token after logout', `Bearer ${loggedOut.access_token}`],
      ['forged session token', `Bearer ${owner.token.slice(0, -6)}AAAAAA`],
      ['unknown personal access token', `Bearer tpp_${'0'.repeat(48)}`],
      ['unknown opaque token', 'Bearer not-a-credential'],
      ['project ingest token', `Bearer ${owner.project.token}`],
      ['project upload token', `Bearer ${connection.uploadToken}`],
      ['refresh token', `Bearer ${loggedOut.refresh_token}`],
    );
  });
  afterAll(async () => service?.close());

  /** A request to the route with the owner's project and organization in every place a route reads them. */
  function probe(route: Route, authorization: string | undefined) {
    const path = route.url
      .replace(':organizationId', owner.organization.id)
      .replace(':userId', owner.user.id)
      .replace(/:[A-Za-z]+/g, () => randomUUID());
    return call(service.app, {
      method: route.method as 'GET',
      url: `${path}?projectId=${owner.project.id}&organizationId=${owner.organization.id}`,
      headers: authorization === undefined ? {} : { authorization },
      ...(route.method === 'GET' || route.method === 'HEAD' ? {} : { payload: {} }),
    });
  }

  const protectedRoutes = () => routes.filter((route) => !PUBLIC.has(keyOf(route)));
  const scopedRoutes = () => protectedRoutes().filter((route) => !CALLER_ONLY.has(keyOf(route)) && !OWN_CREDENTIAL.has(keyOf(route)));

  it('collects the routes the service itself serves, and every allow-listed route exists', () => {
    expect(routes.length).toBeGreaterThan(PUBLIC.size + CALLER_ONLY.size);
    for (const route of routes) expect(service.app.hasRoute({ method: route.method as 'GET', url: route.url }), keyOf(route)).toBe(true);
    const keys = new Set(routes.map(keyOf));
    for (const key of [...PUBLIC, ...CALLER_ONLY, ...OWN_CREDENTIAL.keys()]) expect(keys.has(key), key).toBe(true);
    expect(scopedRoutes().length).toBeGreaterThan(10);
  });

  it('every protected route answers 401 with an empty body to every missing, malformed, expired, revoked, unknown or foreign credential', async () => {
    const failures: string[] = [];
    for (const route of protectedRoutes()) {
      const own = OWN_CREDENTIAL.get(keyOf(route));
      const refused = own === undefined ? badCredentials : [...badCredentials.filter(([label]) => label !== own), ['a user session', `Bearer ${owner.token}`] as const];
      for (const [label, authorization] of refused) {
        const response = await probe(route, authorization);
        if (response.status !== 401 || response.raw !== '') failures.push(`${keyOf(route)} with ${label}: ${response.status} ${response.raw}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('every project or organization route answers 403 Access denied to a member of another organization', async () => {
    const failures: string[] = [];
    for (const route of scopedRoutes()) {
      const response = await probe(route, `Bearer ${stranger.token}`);
      const expected = route.method === 'HEAD' ? '' : JSON.stringify({ error: 'Access denied' });
      if (response.status !== 403 || response.raw !== expected) failures.push(`${keyOf(route)}: ${response.status} ${response.raw}`);
    }
    expect(failures).toEqual([]);
  });

  it('a suspended organization gets 403 on every project or organization route except billing', async () => {
    await suspendOrganization(service.services.meta, owner.organization.id, 'inventory test', new Date(clock.now()));
    await announceProjectChanges(service.services, [owner.project.id]);
    const failures: string[] = [];
    for (const route of scopedRoutes()) {
      const response = await probe(route, `Bearer ${owner.token}`);
      const billing = REACHABLE_WHEN_SUSPENDED.test(keyOf(route));
      if (billing ? response.status === 403 : response.status !== 403) failures.push(`${keyOf(route)}: ${response.status} ${response.raw}`);
      if (!billing && route.method !== 'HEAD' && response.body?.error !== 'the organization is suspended') failures.push(`${keyOf(route)}: ${response.raw}`);
    }
    expect(failures).toEqual([]);
  });
});
