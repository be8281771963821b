/**
 * Route inventory of the application surface. Every route the surface registers is collected
 * (an onRoute hook on an instance that registers the same plugin), so a route added later is
 * probed without anyone listing it. Apart from an explicit public allow-list, every route must
 * answer 401 with an empty body to a missing, malformed, expired, revoked or unknown credential
 * and to a credential of another kind (project, upload or refresh token). A user route must also,
 * unless it only concerns the caller (an explicit list), answer 403 `Access denied` to a member of
 * another organization and 403 to a member of a suspended organization (billing excepted). Every
 * method of every such route names the least role it needs (REQUIRED_ROLE; a route missing there
 * fails), and a read-only and a write member of the organization are refused exactly where that
 * role is above theirs, so a change filed under a reader's scope fails the suite.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceProjectChanges } from '../../src/application/project-changes.js';
import { applicationSurface } from '../../src/api/surface.js';
import { ROLES, atLeast, type Role } from '../../src/core/roles.js';
import { suspendOrganization } from '../../src/store/meta/repositories/organizations.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { DAY, TestClock, bearer, call, joinByInvitation } from '../support/access.js';

/** Routes anyone may call: signing up and in, the device grant, discovery, the plan catalogue, the payment webhook. */
const PUBLIC = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  // Password reset: for people who cannot sign in; the request answers alike for every address, the confirm needs the mailed token.
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  // What the sign-in page offers (no account data).
  'GET /api/auth/providers',
  // What an invitation link offers (its organization's name, the address and role), for the holder of its token.
  'POST /api/invitations/preview',
  // Social sign-in: the browser arrives without a credential; the callback needs the state of its own start.
  'GET /api/auth/oauth/:provider/start',
  'GET /api/auth/oauth/:provider/callback',
  'POST /api/auth/device/authorize',
  'POST /api/auth/device/token',
  'POST /api/auth/logout',
  // Ends the session token it carries; like logout, an ended or unknown token answers the same 204 (idempotent).
  'POST /api/auth/sign-out',
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/oauth-protected-resource',
  'GET /api/billing/plans',
  'POST /api/billing/stripe/webhook',
]);

/** Authenticated routes about the caller alone, with no project or organization to refuse. */
const CALLER_ONLY = new Set([
  'GET /api/me',
  'PATCH /api/me',
  'POST /api/auth/password',
  'GET /api/auth/device-sessions',
  'DELETE /api/auth/device-sessions/:id',
  'GET /api/auth/sessions',
  'DELETE /api/auth/sessions/:id',
  'POST /api/auth/sessions/end-others',
  'POST /api/personal-access-tokens',
  'GET /api/personal-access-tokens',
  'DELETE /api/personal-access-tokens/:id',
  'DELETE /api/personal-access-tokens',
  'GET /api/projects',
  'GET /api/device',
  'POST /api/device/approve',
  'POST /api/device/deny',
  'POST /api/invitations/accept',
  // Starts an organization of the caller's own (test/api/organization-creation.test.ts: who may, and that no one else reads it).
  'POST /api/organizations',
  // Searches only the projects the caller can read (the spec's /distributed-traces/<id> page has no projectId).
  'GET /api/distributed-traces/:id',
]);

/**
 * Routes whose only credential is not a user's (the symbol upload takes a project's upload token):
 * every other credential, a valid user session included, is 401 there.
 */
const OWN_CREDENTIAL = new Map([
  ['POST /api/symbols/upload', 'project upload token'],
  ['POST /api/sourcemaps/upload', 'project source-map token'],
]);

/**
 * The least role each method of each project or organization route needs: reading is for every
 * member, changing a project or its data needs write, and the organization's members, invitations,
 * settings and billing need admin. Decided here, apart from the code, so a route filed under the
 * wrong role fails against it; a new route fails until it is added.
 */
const REQUIRED_ROLE = new Map<string, Role>([
  ['POST /api/projects', 'write'],
  ['PUT /api/projects', 'write'],
  ['DELETE /api/projects', 'write'],
  ['GET /api/projects/connection', 'read-only'],
  ['GET /api/projects/data-status', 'read-only'],
  ['POST /api/projects/token', 'write'],
  ['POST /api/projects/source-map-token', 'write'],
  ['POST /api/projects/upload-token', 'write'],
  ['GET /api/organizations/:organizationId/members', 'read-only'],
  ['PUT /api/organizations/:organizationId/members/:userId', 'admin'],
  // Removing someone else (the probe's :userId is the owner); every member may remove themself, to leave.
  ['DELETE /api/organizations/:organizationId/members/:userId', 'admin'],
  ['GET /api/organizations/:organizationId/invitations', 'admin'],
  ['POST /api/organizations/:organizationId/invitations', 'admin'],
  ['DELETE /api/organizations/:organizationId/invitations/:id', 'admin'],
  ['GET /api/organizations/:organizationId/settings', 'read-only'],
  ['PUT /api/organizations/:organizationId/settings', 'admin'],
  ['GET /api/billing/usage', 'read-only'],
  ['GET /api/billing/subscription', 'read-only'],
  ['POST /api/billing/checkout', 'admin'],
  ['POST /api/billing/portal', 'admin'],
  // Telemetry reads; the POSTs carry a query in the body and change nothing.
  ...[
    'POST /api/exception-stack-traces',
    'POST /api/exception-stack-traces/:hash',
    'POST /api/endpoints',
    'POST /api/endpoints/grouped',
    'POST /api/endpoints/detail',
    'POST /api/endpoints/calls',
    'POST /api/endpoints/series',
    'POST /api/tasks',
    'POST /api/tasks/detail',
    'POST /api/tasks/calls',
    'POST /api/tasks/series',
    'POST /api/ai-traces',
    'GET /api/ai-traces/:id',
    'GET /api/traces/:id',
    'GET /api/metrics/discover',
    'POST /api/metrics/query',
    'POST /api/stats',
    'GET /api/dashboard',
    'GET /api/dashboard/overview',
    'POST /api/logs',
    'POST /api/sessions',
    'GET /api/sessions/:id',
    'GET /api/sessions/:id/recording',
  ].map((key) => [key, 'read-only'] as const),
  // Saved dashboards are shared by the project: anyone may read them, a writer changes anyone's.
  ['GET /api/dashboards', 'read-only'],
  ['GET /api/dashboards/:id', 'read-only'],
  ['POST /api/dashboards', 'write'],
  ['PUT /api/dashboards/:id', 'write'],
  ['DELETE /api/dashboards/:id', 'write'],
  // The issue workflow: every member reads an issue's activity, a writer changes statuses.
  ['PUT /api/exception-stack-traces/:hash/status', 'write'],
  ['PUT /api/exception-stack-traces/status', 'write'],
  ['GET /api/exception-stack-traces/:hash/activity', 'read-only'],
  // Alerting. Channels: the probe names the project, so these are the project roles (write to
  // change); an organization's own channels (no projectId) need its admin (test/api/alerts/routes.test.ts).
  ['GET /api/alert-channels', 'read-only'],
  ['POST /api/alert-channels', 'write'],
  ['DELETE /api/alert-channels/:id', 'write'],
  ['POST /api/alert-channels/:id/test', 'write'],
  ['GET /api/alert-rules', 'read-only'],
  ['GET /api/alert-rules/:id', 'read-only'],
  ['POST /api/alert-rules', 'write'],
  ['PUT /api/alert-rules/:id', 'write'],
  ['DELETE /api/alert-rules/:id', 'write'],
  // On call: acknowledging or resolving a firing rule by hand changes it and tells its channels.
  ['POST /api/alert-rules/:id/acknowledge', 'write'],
  ['POST /api/alert-rules/:id/resolve', 'write'],
  ['GET /api/alert-events', 'read-only'],
]);

/**
 * The request body of a role probe. A route's role is checked before its body is read, so a
 * malformed body stops every admitted probe at 400 and no handler changes anything. Creating a
 * project is the exception: its organization may come from the body, so the handler checks the role
 * (before validating the rest); an empty body is refused there, 403 or 422, and creates nothing.
 */
const ROLE_PROBE_BODY = new Map([['POST /api/projects', {}]]);
const MALFORMED_JSON = '{"unterminated';

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
  /** Session tokens of members of the owner's organization, by role. */
  const members = new Map<Role, string>();
  const badCredentials: Array<[label: string, authorization: string | undefined]> = [];

  async function deviceLogin(sessionToken: string, address: string) {
    const started = (
      await call(service.app, {
        method: 'POST',
        url: '/api/auth/device/authorize',
        remoteAddress: address,
        payload: {},
      })
    ).body!;
    await call(service.app, {
      method: 'POST',
      url: '/api/device/approve',
      headers: bearer(sessionToken),
      payload: { user_code: started.user_code },
    });
    const tokens = await call(service.app, {
      method: 'POST',
      url: '/api/auth/device/token',
      remoteAddress: address,
      payload: { grant_type: 'device_code', device_code: started.device_code },
    });
    expect(tokens.status).toBe(200);
    return tokens.body!;
  }
  const createPat = async (sessionToken: string, payload: object) =>
    (
      await call(service.app, {
        method: 'POST',
        url: '/api/personal-access-tokens',
        headers: bearer(sessionToken),
        payload,
      })
    ).body!;

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
    members.set('admin', owner.token);
    for (const role of ['write', 'read-only'] as const) {
      const joined = await joinByInvitation(service.app, owner, role, `${role}-member-${randomUUID()}@example.com`);
      expect(joined.body?.organization).toMatchObject({ id: owner.organization.id, role });
      members.set(role, joined.body!.token);
    }
    const revokedPat = await createPat(owner.token, { name: 'revoked' });
    await call(service.app, {
      method: 'DELETE',
      url: `/api/personal-access-tokens/${revokedPat.id}`,
      headers: bearer(owner.token),
    });
    const loggedOut = await deviceLogin(owner.token, '192.0.2.2');
    await call(service.app, {
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refresh_token: loggedOut.refresh_token },
    });
    const connection = (
      await call(service.app, {
        method: 'GET',
        url: `/api/projects/connection?projectId=${owner.project.id}`,
        headers: bearer(owner.token),
      })
    ).body!;

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
      ['project source-map token', `Bearer ${connection.sourceMapToken}`],
      ['refresh token', `Bearer ${loggedOut.refresh_token}`],
    );
  });
  afterAll(async () => service?.close());

  /** A request to the route with the owner's project and organization in every place a route reads them. */
  function probe(route: Route, authorization: string | undefined, payload: object | string = {}) {
    const path = route.url
      .replace(':organizationId', owner.organization.id)
      .replace(':userId', owner.user.id)
      .replace(/:[A-Za-z]+/g, () => randomUUID());
    return call(service.app, {
      method: route.method as 'GET',
      url: `${path}?projectId=${owner.project.id}&organizationId=${owner.organization.id}`,
      headers: { ...(authorization === undefined ? {} : { authorization }), 'content-type': 'application/json' },
      ...(route.method === 'GET' || route.method === 'HEAD' ? {} : { payload }),
    });
  }

  const protectedRoutes = () => routes.filter((route) => !PUBLIC.has(keyOf(route)));
  const scopedRoutes = () =>
    protectedRoutes().filter((route) => !CALLER_ONLY.has(keyOf(route)) && !OWN_CREDENTIAL.has(keyOf(route)));

  it('collects the routes the service itself serves, and every allow-listed route exists', () => {
    expect(routes.length).toBeGreaterThan(PUBLIC.size + CALLER_ONLY.size);
    for (const route of routes)
      expect(service.app.hasRoute({ method: route.method as 'GET', url: route.url }), keyOf(route)).toBe(true);
    const keys = new Set(routes.map(keyOf));
    for (const key of [
      ...PUBLIC,
      ...CALLER_ONLY,
      ...OWN_CREDENTIAL.keys(),
      ...REQUIRED_ROLE.keys(),
      ...ROLE_PROBE_BODY.keys(),
    ])
      expect(keys.has(key), key).toBe(true);
    expect(scopedRoutes().length).toBeGreaterThan(10);
  });

  it('every method of every project or organization route names the role it needs', () => {
    const unclassified = [...new Set(scopedRoutes().map(keyOf))].filter((key) => !REQUIRED_ROLE.has(key));
    expect(unclassified).toEqual([]);
  });

  it.each(ROLES.filter((role) => role !== 'admin'))(
    'a %s member is refused exactly the routes that need more',
    async (role) => {
      const failures: string[] = [];
      for (const route of scopedRoutes()) {
        const required = REQUIRED_ROLE.get(keyOf(route));
        if (required === undefined) continue; // reported by the classification test
        const response = await probe(
          route,
          `Bearer ${members.get(role)}`,
          ROLE_PROBE_BODY.get(keyOf(route)) ?? MALFORMED_JSON,
        );
        const refused = response.status === 403;
        if (atLeast(role, required) ? refused || response.status === 401 : !refused)
          failures.push(`${keyOf(route)} (needs ${required}): ${response.status} ${response.raw}`);
        else if (refused && route.method !== 'HEAD' && !/needs the (write|admin) role/.test(response.body?.error))
          failures.push(`${keyOf(route)}: ${response.raw}`);
      }
      expect(failures).toEqual([]);
    },
  );

  it('every protected route answers 401 with an empty body to every missing, malformed, expired, revoked, unknown or foreign credential', async () => {
    const failures: string[] = [];
    for (const route of protectedRoutes()) {
      const own = OWN_CREDENTIAL.get(keyOf(route));
      const refused =
        own === undefined
          ? badCredentials
          : [
              ...badCredentials.filter(([label]) => label !== own),
              ['a user session', `Bearer ${owner.token}`] as const,
            ];
      for (const [label, authorization] of refused) {
        const response = await probe(route, authorization);
        if (response.status !== 401 || response.raw !== '')
          failures.push(`${keyOf(route)} with ${label}: ${response.status} ${response.raw}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('every project or organization route answers 403 Access denied to a member of another organization', async () => {
    const failures: string[] = [];
    for (const route of scopedRoutes()) {
      const response = await probe(route, `Bearer ${stranger.token}`);
      const expected = route.method === 'HEAD' ? '' : JSON.stringify({ error: 'Access denied' });
      if (response.status !== 403 || response.raw !== expected)
        failures.push(`${keyOf(route)}: ${response.status} ${response.raw}`);
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
      if (billing ? response.status === 403 : response.status !== 403)
        failures.push(`${keyOf(route)}: ${response.status} ${response.raw}`);
      if (!billing && route.method !== 'HEAD' && response.body?.error !== 'the organization is suspended')
        failures.push(`${keyOf(route)}: ${response.raw}`);
    }
    expect(failures).toEqual([]);
  });
});
