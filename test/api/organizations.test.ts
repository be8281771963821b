/**
 * Organizations: members, roles, invitations within the plan's seat limit and their acceptance
 * (by registering or as a signed-in user), and settings — with the role each route needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { DAY, SMALL_CATALOGUE, TestClock, bearer, call, writePlansFile } from '../support/access.js';

describe('organizations', () => {
  const clock = new TestClock();
  let service: TestService;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let org: string;

  const as = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    call(service.app, { method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const invite = (email: string, role = 'write', token = admin.token) =>
    as(token, 'POST', `/api/organizations/${org}/invitations`, { email, role });
  const registerWith = (invitationToken: string, email: string) =>
    call(service.app, {
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: 'correct horse battery', name: email.split('@')[0], invitationToken },
    });

  beforeAll(async () => {
    // Invitations are the only way in after the first user; the Free plan has two seats. Sessions
    // outlive the week this suite moves the clock by.
    service = await startTestService(
      { PLANS_FILE: writePlansFile(SMALL_CATALOGUE), REGISTRATION: 'first-user', SESSION_TTL_HOURS: String(30 * 24) },
      { now: clock.now },
    );
    admin = await registerUser(service.app, { email: 'admin@example.com' });
    org = admin.organization.id;
  });
  afterAll(async () => service?.close());

  it('invites with a token shown once; registering through it joins the organization with the invited role', async () => {
    const created = await invite('Writer@Example.com');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'Writer@Example.com', role: 'write', status: 'pending' });
    expect(created.body!.token).toMatch(/^tpi_[0-9a-f]{40}$/);
    expect(created.body!.acceptUrl).toBe(`http://localhost:8080/accept-invitation?token=${created.body!.token}`);
    expect(new Date(created.body!.expiresAt).getTime() - new Date(created.body!.createdAt).getTime()).toBe(7 * DAY);
    const list = await as(admin.token, 'GET', `/api/organizations/${org}/invitations`);
    expect(list.raw).not.toContain(created.body!.token);
    expect(list.body!.invitations).toEqual([expect.objectContaining({ id: created.body!.id, status: 'pending' })]);

    // Registration is closed after the first user (REGISTRATION=first-user), except through an invitation.
    const closed = await call(service.app, {
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'someone@example.com', password: 'correct horse battery', name: 'S' },
    });
    expect(closed).toMatchObject({
      status: 403,
      body: { error: 'registration is closed: ask an organization admin for an invitation' },
    });
    const joined = await registerWith(created.body!.token, 'writer@example.com');
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ organization: { id: org, role: 'write' }, project: null });
    const me = await as(joined.body!.token, 'GET', '/api/me');
    expect(me.body!.organizations).toEqual([expect.objectContaining({ id: org, role: 'write' })]);
    expect((await registerWith(created.body!.token, 'again@example.com')).status).toBe(404);
    const accepted = await as(admin.token, 'GET', `/api/organizations/${org}/invitations`);
    expect(accepted.body!.invitations[0]).toMatchObject({ status: 'accepted' });
  });

  it('the seat limit counts members and open invitations; inviting beyond it is 422 naming limit and plan', async () => {
    // Two members now (admin, writer) on the Free plan's two seats.
    const over = await invite('third@example.com');
    expect(over).toMatchObject({
      status: 422,
      body: {
        error:
          'seat limit reached: the Free plan allows 2 seats, members and pending invitations together; revoke an invitation, remove a member or move to a plan with more',
      },
    });
    expect(await invite('writer@example.com')).toMatchObject({
      status: 422,
      body: { error: 'this address belongs to a member already' },
    });
  });

  it('members: any member lists; admins change roles and remove; the last admin stays', async () => {
    const members = await as(admin.token, 'GET', `/api/organizations/${org}/members`);
    expect(members.body!.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['admin@example.com', 'admin'],
      ['writer@example.com', 'write'],
    ]);
    const writer = members.body!.members[1];
    const writerLogin = await call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'writer@example.com', password: 'correct horse battery' },
    });
    const writerToken = writerLogin.body!.token;
    expect((await as(writerToken, 'GET', `/api/organizations/${org}/members`)).status).toBe(200);
    expect(
      await as(writerToken, 'PUT', `/api/organizations/${org}/members/${admin.user.id}`, { role: 'read-only' }),
    ).toMatchObject({
      status: 403,
      body: { error: 'this needs the admin role in the organization' },
    });
    expect((await as(writerToken, 'GET', `/api/organizations/${org}/invitations`)).status).toBe(403);

    expect(
      await as(admin.token, 'PUT', `/api/organizations/${org}/members/${admin.user.id}`, { role: 'write' }),
    ).toMatchObject({
      status: 422,
      body: { error: 'an organization needs at least one admin: make another member admin first' },
    });
    expect(
      (await as(admin.token, 'PUT', `/api/organizations/${org}/members/${writer.userId}`, { role: 'owner' })).status,
    ).toBe(400);
    expect(
      (
        await as(admin.token, 'PUT', `/api/organizations/${org}/members/00000000-0000-4000-8000-000000000000`, {
          role: 'write',
        })
      ).status,
    ).toBe(404);
    const promoted = await as(admin.token, 'PUT', `/api/organizations/${org}/members/${writer.userId}`, {
      role: 'read-only',
    });
    expect(promoted).toMatchObject({ status: 200, body: { userId: writer.userId, role: 'read-only' } });

    expect(await as(admin.token, 'DELETE', `/api/organizations/${org}/members/${admin.user.id}`)).toMatchObject({
      status: 422,
    });
    // A member may leave on their own.
    expect(await as(writerToken, 'DELETE', `/api/organizations/${org}/members/${writer.userId}`)).toMatchObject({
      status: 200,
      body: { status: 'removed' },
    });
    expect((await as(writerToken, 'GET', `/api/organizations/${org}/members`)).status).toBe(403);
  });

  it('re-inviting an address renews its invitation without taking another seat; revoked and expired invitations cannot be used', async () => {
    const first = await invite('guest@example.com', 'read-only');
    expect(first.status).toBe(201);
    const again = await invite('guest@example.com', 'write');
    expect(again).toMatchObject({ status: 201, body: { id: first.body!.id, role: 'write' } });
    expect((await registerWith(first.body!.token, 'guest@example.com')).status).toBe(404);

    expect(await as(admin.token, 'DELETE', `/api/organizations/${org}/invitations/${again.body!.id}`)).toMatchObject({
      status: 200,
      body: { status: 'revoked' },
    });
    expect((await as(admin.token, 'DELETE', `/api/organizations/${org}/invitations/${again.body!.id}`)).status).toBe(
      404,
    );
    const revokedUse = await registerWith(again.body!.token, 'guest@example.com');
    expect(revokedUse).toMatchObject({
      status: 404,
      body: { error: 'no open invitation with this token: it may have expired or been revoked' },
    });

    const late = await invite('late@example.com');
    clock.advance(7 * DAY);
    expect(
      (await as(admin.token, 'GET', `/api/organizations/${org}/invitations`)).body!.invitations.find(
        (i: { id: string }) => i.id === late.body!.id,
      ),
    ).toMatchObject({
      status: 'expired',
    });
    expect((await registerWith(late.body!.token, 'late@example.com')).status).toBe(404);
  });

  it('a signed-in user accepts an invitation and joins with its role', async () => {
    const outsider = await call(service.app, {
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'outsider@example.com',
        password: 'correct horse battery',
        name: 'O',
        invitationToken: (await invite('outsider@example.com')).body!.token,
      },
    });
    expect(outsider.status).toBe(201);
    expect((await invite('x@example.com')).status).toBe(422);
    // Two seats are taken again (admin, outsider); free one and invite the outsider's second address.
    await as(admin.token, 'DELETE', `/api/organizations/${org}/members/${outsider.body!.user.id}`);
    const invitation = await invite('outsider+work@example.com', 'read-only');
    // The link's page shows, to anyone holding the token, what accepting it means; nothing for a bogus token.
    const preview = (token: string) =>
      call(service.app, { method: 'POST', url: '/api/invitations/preview', payload: { token } });
    const settings = await as(admin.token, 'GET', `/api/organizations/${org}/settings`);
    expect(await preview(invitation.body!.token)).toMatchObject({
      status: 200,
      body: {
        organization: { name: settings.body!.name },
        email: 'outsider+work@example.com',
        role: 'read-only',
        expiresAt: invitation.body!.expiresAt,
      },
    });
    expect((await preview('inv_not-a-real-token')).status).toBe(404);
    const accepted = await as(outsider.body!.token, 'POST', '/api/invitations/accept', {
      token: invitation.body!.token,
    });
    expect(accepted).toMatchObject({ status: 200, body: { organization: { id: org, role: 'read-only' } } });
    expect((await invite('outsider+again@example.com')).status).toBe(422);
    expect(
      await as(outsider.body!.token, 'POST', '/api/invitations/accept', { token: invitation.body!.token }),
    ).toMatchObject({ status: 404 });
    expect((await preview(invitation.body!.token)).status).toBe(404);
  });

  it('settings: members read them, admins change them, invalid values are 422', async () => {
    const url = `/api/organizations/${org}/settings`;
    expect((await as(admin.token, 'GET', url)).body).toEqual({ name: expect.any(String), timezone: 'UTC' });
    expect(await as(admin.token, 'PUT', url, { timezone: 'Mars/Olympus' })).toMatchObject({
      status: 422,
      body: { error: 'timezone must be an IANA time zone name such as Europe/Berlin or UTC' },
    });
    expect(await as(admin.token, 'PUT', url, { name: '  ' })).toMatchObject({
      status: 422,
      body: { error: 'name must be 1 to 100 characters' },
    });
    // Stored as the time zone database writes it, so pages and notifications name it one way.
    expect(await as(admin.token, 'PUT', url, { name: 'Acme', timezone: 'europe/berlin' })).toMatchObject({
      status: 200,
      body: { name: 'Acme', timezone: 'Europe/Berlin' },
    });
    expect((await as(admin.token, 'PUT', url, { name: 'Acme Inc' })).body).toEqual({
      name: 'Acme Inc',
      timezone: 'Europe/Berlin',
    });
    const reader = await call(service.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'outsider@example.com', password: 'correct horse battery' },
    });
    expect((await as(reader.body!.token, 'GET', url)).body).toEqual({ name: 'Acme Inc', timezone: 'Europe/Berlin' });
    expect((await as(reader.body!.token, 'PUT', url, { name: 'Mine' })).status).toBe(403);
    expect((await as(admin.token, 'GET', '/api/me')).body!.organizations[0]).toMatchObject({ name: 'Acme Inc' });
  });

  it('an organization id that is not a UUID is 400; another organization is 403 Access denied', async () => {
    expect((await as(admin.token, 'GET', '/api/organizations/nope/members')).status).toBe(400);
    const other = await call(service.app, { method: 'GET', url: `/api/organizations/${org}/members` });
    expect(other.status).toBe(401);
    const foreign = await as(admin.token, 'GET', '/api/organizations/00000000-0000-4000-8000-000000000000/members');
    expect(foreign).toMatchObject({ status: 403, body: { error: 'Access denied' } });
  });
});
