/**
 * POST /api/organizations: a further organization, made as registration makes the first one (the
 * caller its only admin, the default plan), under the registration policy; and a first project
 * created in it without any project to name (POST /api/projects without projectId).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { bearer, call, createPersonalAccessToken, joinByInvitation } from '../support/access.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe('creating an organization', () => {
  let service: TestService;
  let ada: Awaited<ReturnType<typeof registerUser>>;
  const as = (token: string, method: Method, url: string, payload?: object) =>
    call(service.app, { method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const create = (token: string, payload: object) => as(token, 'POST', '/api/organizations', payload);

  beforeAll(async () => {
    // Closed after the first account (the default policy); on the built-in plan.
    service = await startTestService({ REGISTRATION: 'first-user' });
    ada = await registerUser(service.app, { email: 'ada@example.com', name: 'Ada' });
  });
  afterAll(async () => service?.close());

  it('answers 201 with the caller as its only admin, on the default plan, listed by /api/me', async () => {
    const created = await create(ada.token, { name: '  Second shop  ' });
    expect(created).toMatchObject({ status: 201, body: { name: 'Second shop', role: 'admin', suspended: false } });
    const id = created.body!.id as string;
    expect(id).not.toBe(ada.organization.id);
    const me = await as(ada.token, 'GET', '/api/me');
    expect(me.body!.organizations).toEqual([
      expect.objectContaining({ id: ada.organization.id, role: 'admin' }),
      { id, name: 'Second shop', role: 'admin', suspended: false },
    ]);
    const members = await as(ada.token, 'GET', `/api/organizations/${id}/members`);
    expect(members.body!.members).toEqual([expect.objectContaining({ userId: ada.user.id, role: 'admin' })]);
    // The default plan, as registration's organization has it, and nothing used yet.
    const first = await as(ada.token, 'GET', `/api/billing/usage?organizationId=${ada.organization.id}`);
    const usage = await as(ada.token, 'GET', `/api/billing/usage?organizationId=${id}`);
    expect(usage.body!.usage).toMatchObject({
      planCode: first.body!.usage.planCode,
      counters: { projects: 0, seats: 1 },
    });
    expect(usage.body!.usage.limits).toEqual(first.body!.usage.limits);
    // Its admin invites.
    const invited = await as(ada.token, 'POST', `/api/organizations/${id}/invitations`, {
      email: 'grace@example.com',
      role: 'write',
    });
    expect(invited).toMatchObject({ status: 201, body: { email: 'grace@example.com', status: 'pending' } });
  });

  it('a first project goes into it by naming the organization alone, as a person without any project must', async () => {
    const { id } = (await create(ada.token, { name: 'Empty' })).body!;
    const project = await as(ada.token, 'POST', '/api/projects', {
      name: 'Web',
      framework: 'nodejs',
      organizationId: id,
    });
    expect(project).toMatchObject({ status: 201, body: { name: 'Web', organizationId: id, role: 'admin' } });
    // Neither an organization nor a project named: nothing to create the project in.
    expect(await as(ada.token, 'POST', '/api/projects', { name: 'Web', framework: 'nodejs' })).toMatchObject({
      status: 400,
      body: { error: 'name the organization (organizationId in the body) or a project next to it (projectId)' },
    });
  });

  it('takes a personal access token, as the other organization routes do; no credential is 401', async () => {
    const pat = await createPersonalAccessToken(service.app, ada.token, 'ci');
    expect(await create(pat, { name: 'By token' })).toMatchObject({ status: 201, body: { name: 'By token' } });
    const anonymous = await call(service.app, { method: 'POST', url: '/api/organizations', payload: { name: 'X' } });
    expect(anonymous).toMatchObject({ status: 401, raw: '' });
  });

  it('refuses a malformed body with 400 and a bad name with the rename rule (422)', async () => {
    for (const payload of [{}, { name: 5 }, { name: null }]) {
      const answer = await create(ada.token, payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      expect(typeof answer.body!.error).toBe('string');
    }
    for (const name of ['   ', 'x'.repeat(101)]) {
      expect(await create(ada.token, { name })).toMatchObject({
        status: 422,
        body: { error: 'name must be 1 to 100 characters' },
      });
    }
    const renamed = await as(ada.token, 'PUT', `/api/organizations/${ada.organization.id}/settings`, { name: '   ' });
    expect(renamed.body).toEqual({ error: 'name must be 1 to 100 characters' });
  });

  it('with registration closed, only an admin of an organization may create one', async () => {
    const joined = await joinByInvitation(service.app, ada, 'write', 'writer@example.com');
    expect(await create(joined.body!.token, { name: 'My own' })).toMatchObject({
      status: 403,
      body: {
        error:
          'registration is closed, so only an admin of an organization may create another one: ask an admin of this server',
      },
    });
    expect((await as(joined.body!.token, 'GET', '/api/me')).body!.organizations).toHaveLength(1);
  });

  it('another person cannot read or change the new organization', async () => {
    const { id } = (await create(ada.token, { name: 'Private' })).body!;
    const other = await joinByInvitation(service.app, ada, 'admin', 'other-admin@example.com');
    // An admin elsewhere (of Ada's first organization), not a member of this one.
    for (const [method, url] of [
      ['GET', `/api/organizations/${id}/members`],
      ['GET', `/api/organizations/${id}/settings`],
      ['PUT', `/api/organizations/${id}/settings`],
      ['POST', `/api/organizations/${id}/invitations`],
      ['GET', `/api/billing/usage?organizationId=${id}`],
    ] as const) {
      const answer = await as(other.body!.token, method, url, method === 'GET' ? undefined : { name: 'Mine' });
      expect(answer.status, `${method} ${url}`).toBe(403);
    }
    expect(
      await as(other.body!.token, 'POST', '/api/projects', { name: 'Web', framework: 'nodejs', organizationId: id }),
    ).toMatchObject({ status: 403, body: { error: 'Access denied' } });
  });

  it('allows 10 an hour per person, then 429 with the wait', async () => {
    const zed = await joinByInvitation(service.app, ada, 'admin', 'zed@example.com');
    for (let i = 0; i < 10; i++) expect((await create(zed.body!.token, { name: `Org ${i}` })).status).toBe(201);
    const refused = await create(zed.body!.token, { name: 'One too many' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body!.error).toMatch(/^Too many requests, try again in \d+s$/);
  });
});

describe('creating an organization with registration open', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ REGISTRATION: 'open' });
  });
  afterAll(async () => service?.close());

  it('lets a member without an admin role anywhere create one', async () => {
    const ada = await registerUser(service.app);
    const joined = await joinByInvitation(service.app, ada, 'read-only', 'reader@example.com');
    // Leaves the organization they were invited to: now in none.
    const reader = joined.body!;
    await call(service.app, {
      method: 'DELETE',
      url: `/api/organizations/${ada.organization.id}/members/${reader.user.id}`,
      headers: bearer(reader.token),
    });
    const created = await call(service.app, {
      method: 'POST',
      url: '/api/organizations',
      headers: bearer(reader.token),
      payload: { name: 'Reader Inc' },
    });
    expect(created).toMatchObject({ status: 201, body: { name: 'Reader Inc', role: 'admin' } });
  });
});
