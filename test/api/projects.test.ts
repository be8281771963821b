/**
 * Projects and the project scope: the reachable list with the hidden token for read-only members,
 * create within the plan's project limit, update, delete (its ingest token stops at once), token
 * rotation, `?projectId=` rules, roles, suspension, and the application body cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNPAID_SUSPENSION_REASON } from '../../src/core/plans.js';
import { announceProjectChanges } from '../../src/application/project-changes.js';
import { liftSuspension, suspendOrganization } from '../../src/store/meta/repositories/organizations.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { SMALL_CATALOGUE, bearer, call, writePlansFile } from '../support/access.js';

const REPORT = { collectionFrames: [], appVersion: '', serverName: '' };

describe('projects', () => {
  let service: TestService;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let writer: string;
  let reader: string;

  const as = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    call(service.app, { method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  /** A member of the admin's organization with the given role, through an invitation. */
  async function member(role: 'write' | 'read-only'): Promise<{ token: string; userId: string }> {
    const invitation = await as(admin.token, 'POST', `/api/organizations/${admin.organization.id}/invitations`, {
      email: `${role}-${Date.now()}@example.com`,
      role,
    });
    expect(invitation.status).toBe(201);
    const registered = await call(service.app, {
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: invitation.body!.email,
        password: 'correct horse battery',
        name: role,
        invitationToken: invitation.body!.token,
      },
    });
    expect(registered.status).toBe(201);
    return { token: registered.body!.token, userId: registered.body!.user.id };
  }

  beforeAll(async () => {
    service = await startTestService({
      PLANS_FILE: writePlansFile({
        ...SMALL_CATALOGUE,
        plans: SMALL_CATALOGUE.plans.map((p) =>
          p.code === 'free' ? { ...p, limits: { ...p.limits, projects: 3, seats: 5 } } : p,
        ),
      }),
    });
    admin = await registerUser(service.app);
    writer = (await member('write')).token;
    reader = (await member('read-only')).token;
  });
  afterAll(async () => service?.close());

  it('lists every reachable project with the caller’s role; read-only members see a placeholder token', async () => {
    const mine = await as(admin.token, 'GET', '/api/projects');
    expect(mine.body!.projects).toEqual([
      {
        id: admin.project.id,
        name: 'My first project',
        framework: 'opentelemetry',
        organizationId: admin.organization.id,
        backendUrl: '',
        role: 'admin',
        token: admin.project.token,
      },
    ]);
    const theirs = await as(reader, 'GET', '/api/projects');
    expect(theirs.body!.projects).toEqual([
      expect.objectContaining({ id: admin.project.id, role: 'read-only', token: 'read-only-hidden-token' }),
    ]);
    expect(theirs.raw).not.toContain(admin.project.token);
    const stranger = await registerUser(service.app);
    expect((await as(stranger.token, 'GET', '/api/projects')).body!.projects.map((p: { id: string }) => p.id)).toEqual([
      stranger.project.id,
    ]);
  });

  it('?projectId= that is missing or unparseable is 400; one without access is 403 Access denied', async () => {
    for (const query of ['', '?projectId=', '?projectId=12345', `?projectId=${admin.project.id}x`]) {
      const response = await as(admin.token, 'GET', `/api/projects/connection${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body).toEqual({ error: 'projectId query parameter must be a project id (UUID)' });
    }
    const stranger = await registerUser(service.app);
    expect(await as(stranger.token, 'GET', `/api/projects/connection?projectId=${admin.project.id}`)).toMatchObject({
      status: 403,
      body: { error: 'Access denied' },
    });
    expect(
      await as(admin.token, 'GET', '/api/projects/connection?projectId=00000000-0000-4000-8000-000000000000'),
    ).toMatchObject({
      status: 403,
      body: { error: 'Access denied' },
    });
  });

  it('create: 201 with the new token; invalid name or framework is 422; the plan’s project limit is 422 naming limit and plan', async () => {
    const url = `/api/projects?projectId=${admin.project.id}`;
    expect(await as(admin.token, 'POST', url, { name: 'bad/name', framework: 'go' })).toMatchObject({
      status: 422,
      body: { error: 'name must be 1 to 100 characters of letters, numbers, spaces, hyphens and underscores' },
    });
    expect(await as(admin.token, 'POST', url, { framework: 'go' })).toMatchObject({ status: 422 });
    const badFramework = await as(admin.token, 'POST', url, { name: 'api', framework: 'cobol' });
    expect(badFramework.status).toBe(422);
    expect(badFramework.body!.error).toMatch(
      /^framework must be one of opentelemetry, go, nodejs, nestjs, javascript, react, vue, svelte, flutter, ios, android, react-native$/,
    );

    const created = await as(admin.token, 'POST', url, { name: 'Mobile app', framework: 'flutter' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Mobile app',
      framework: 'flutter',
      organizationId: admin.organization.id,
      role: 'admin',
      backendUrl: '',
    });
    expect(created.body!.token).toMatch(/^[0-9a-f]{32}$/);
    expect((await as(writer, 'POST', url, { name: 'Third', framework: 'ios' })).status).toBe(201);
    const limited = await as(admin.token, 'POST', url, { name: 'Fourth', framework: 'go' });
    expect(limited).toMatchObject({
      status: 422,
      body: {
        error: 'project limit reached: the Free plan allows 3 projects; delete a project or move to a plan with more',
      },
    });
    // The new project's token works on ingest at once.
    expect(
      (
        await call(service.app, {
          method: 'POST',
          url: '/api/report',
          headers: bearer(created.body!.token),
          payload: REPORT,
        })
      ).status,
    ).toBe(200);
  });

  it('create: a read-only member may not; another organization needs the write role there', async () => {
    const url = `/api/projects?projectId=${admin.project.id}`;
    expect(await as(reader, 'POST', url, { name: 'x', framework: 'go' })).toMatchObject({
      status: 403,
      body: { error: 'creating a project needs the write role in the organization' },
    });
    const other = await registerUser(service.app);
    expect(
      await as(admin.token, 'POST', url, { name: 'x', framework: 'go', organizationId: other.organization.id }),
    ).toMatchObject({
      status: 403,
      body: { error: 'Access denied' },
    });
    const inOwn = await as(other.token, 'POST', `/api/projects?projectId=${other.project.id}`, {
      name: 'second',
      framework: 'go',
      organizationId: other.organization.id,
    });
    expect(inOwn).toMatchObject({ status: 201, body: { organizationId: other.organization.id } });
  });

  it('update needs write access and validates like create', async () => {
    const url = `/api/projects?projectId=${admin.project.id}`;
    expect(await as(reader, 'PUT', url, { name: 'nope' })).toMatchObject({
      status: 403,
      body: { error: 'this needs the write role on the project' },
    });
    expect(await as(writer, 'PUT', url, { backendUrl: 'ftp://x' })).toMatchObject({ status: 422 });
    const updated = await as(writer, 'PUT', url, { name: 'Renamed', backendUrl: 'https://api.example.com' });
    expect(updated).toMatchObject({
      status: 200,
      body: { id: admin.project.id, name: 'Renamed', backendUrl: 'https://api.example.com', role: 'write' },
    });
  });

  it('a project-level role narrows the organization role', async () => {
    const narrowed = await member('write');
    await service.services.meta.query(
      "INSERT INTO project_role_overrides (project_id, organization_id, user_id, role) VALUES ($1, $2, $3, 'read-only')",
      [admin.project.id, admin.organization.id, narrowed.userId],
    );
    const list = await as(narrowed.token, 'GET', '/api/projects');
    expect(list.body!.projects.find((p: { id: string }) => p.id === admin.project.id)).toMatchObject({
      role: 'read-only',
      token: 'read-only-hidden-token',
    });
    expect((await as(narrowed.token, 'PUT', `/api/projects?projectId=${admin.project.id}`, { name: 'x' })).status).toBe(
      403,
    );
  });

  it('the Connection page shows the three tokens, hidden from read-only members; rotation stops the old token at once', async () => {
    const url = `/api/projects/connection?projectId=${admin.project.id}`;
    const shown = await as(writer, 'GET', url);
    expect(shown.body).toMatchObject({ projectId: admin.project.id, token: admin.project.token });
    expect(shown.body!.uploadToken).toMatch(/^tpu_[0-9a-f]{40}$/);
    expect(shown.body!.sourceMapToken).toMatch(/^tps_[0-9a-f]{40}$/);
    expect((await as(reader, 'GET', url)).body).toEqual({
      projectId: admin.project.id,
      token: 'read-only-hidden-token',
      uploadToken: 'read-only-hidden-token',
      sourceMapToken: 'read-only-hidden-token',
    });

    expect((await as(reader, 'POST', `/api/projects/source-map-token?projectId=${admin.project.id}`)).status).toBe(403);
    const sourceMap = await as(writer, 'POST', `/api/projects/source-map-token?projectId=${admin.project.id}`);
    expect(sourceMap.body!.sourceMapToken).toMatch(/^tps_[0-9a-f]{40}$/);
    expect(sourceMap.body!.sourceMapToken).not.toBe(shown.body!.sourceMapToken);
    const upload = await as(writer, 'POST', `/api/projects/upload-token?projectId=${admin.project.id}`);
    expect(upload.body!.uploadToken).toMatch(/^tpu_[0-9a-f]{40}$/);
    const stored = await service.services.meta.query<{ source_map_token: string; upload_token: string }>(
      'SELECT source_map_token, upload_token FROM projects WHERE source_map_token = $1 OR upload_token = $2',
      [shown.body!.sourceMapToken, shown.body!.uploadToken],
    );
    expect(stored).toEqual([]);
  });

  it('rotating the ingest token needs write access; the previous token stops at once and the new one works', async () => {
    const other = await registerUser(service.app);
    const report = (token: string) =>
      call(service.app, { method: 'POST', url: '/api/report', headers: bearer(token), payload: REPORT });
    expect((await report(other.project.token)).status).toBe(200);
    const url = `/api/projects/token?projectId=${other.project.id}`;
    expect((await as(admin.token, 'POST', url)).status).toBe(403);
    const rotated = await as(other.token, 'POST', url);
    expect(rotated.status).toBe(200);
    const token = rotated.body!.token as string;
    expect(token).not.toBe(other.project.token);
    expect((await report(other.project.token)).status).toBe(401);
    expect((await report(token)).status).toBe(200);
    expect((await as(other.token, 'GET', `/api/projects/connection?projectId=${other.project.id}`)).body!.token).toBe(
      token,
    );
  });

  it('delete needs write access; the deleted project’s ingest token stops at once', async () => {
    const other = await registerUser(service.app);
    const report = () =>
      call(service.app, { method: 'POST', url: '/api/report', headers: bearer(other.project.token), payload: REPORT });
    expect((await report()).status).toBe(200);
    const url = `/api/projects?projectId=${other.project.id}`;
    expect((await as(admin.token, 'DELETE', url)).status).toBe(403);
    expect(await as(other.token, 'DELETE', url)).toMatchObject({ status: 200, body: { status: 'deleted' } });
    expect((await report()).status).toBe(401);
    expect(await as(other.token, 'GET', `/api/projects/connection?projectId=${other.project.id}`)).toMatchObject({
      status: 403,
      body: { error: 'Access denied' },
    });
  });

  it('a suspended organization gets 403 on the application API and 503 on ingest, and both resume when lifted', async () => {
    const org = await registerUser(service.app);
    const report = () =>
      call(service.app, { method: 'POST', url: '/api/report', headers: bearer(org.project.token), payload: REPORT });
    expect((await report()).status).toBe(200);
    await suspendOrganization(service.services.meta, org.organization.id, UNPAID_SUSPENSION_REASON, new Date());
    await announceProjectChanges(service.services, [org.project.id]);
    expect(await as(org.token, 'GET', `/api/projects/connection?projectId=${org.project.id}`)).toMatchObject({
      status: 403,
      body: { error: 'the organization is suspended' },
    });
    expect(await as(org.token, 'GET', `/api/organizations/${org.organization.id}/members`)).toMatchObject({
      status: 403,
    });
    const ingest = await report();
    expect(ingest.status).toBe(503);
    expect(ingest.headers['retry-after']).toBeDefined();
    await liftSuspension(service.services.meta, org.organization.id, UNPAID_SUSPENSION_REASON, new Date());
    await announceProjectChanges(service.services, [org.project.id]);
    expect((await as(org.token, 'GET', `/api/projects/connection?projectId=${org.project.id}`)).status).toBe(200);
    expect((await report()).status).toBe(200);
  });

  it('an application body over 8 MB after decompression is 413', async () => {
    const response = await call(service.app, {
      method: 'PUT',
      url: `/api/projects?projectId=${admin.project.id}`,
      headers: { ...bearer(admin.token), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(8 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(response.body!.error).toMatch(/8 MB/);
  });
});
