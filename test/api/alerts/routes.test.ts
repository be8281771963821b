/**
 * Alerting routes across scopes: organization channels (admin to change, every member reads,
 * every project of the organization may use them), project channels (write role), and
 * isolation between organizations. The route inventory probes every route with the project's
 * roles; this suite covers what it cannot: the organization scope of channels.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, call, joinByInvitation } from '../../support/access.js';
import { registerUser, startTestService, type TestService } from '../../support/service.js';

describe('alerting routes: organization and project scopes', () => {
  let service: TestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let stranger: Awaited<ReturnType<typeof registerUser>>;
  const members = new Map<string, string>();

  beforeAll(async () => {
    service = await startTestService();
    owner = await registerUser(service.app);
    stranger = await registerUser(service.app);
    for (const role of ['write', 'read-only'] as const) {
      const joined = await joinByInvitation(service.app, owner, role, `${role}-${randomUUID()}@example.com`);
      members.set(role, joined.body!.token);
    }
  });
  afterAll(async () => service?.close());

  const orgChannels = (token: string, method: 'GET' | 'POST', payload?: object) =>
    call(service.app, {
      method,
      url: `/api/alert-channels?organizationId=${owner.organization.id}`,
      headers: bearer(token),
      ...(payload ? { payload } : {}),
    });

  it('organization channels: admin creates and deletes, members read, write members are refused', async () => {
    const body = { name: 'Org hook', kind: 'webhook', url: 'https://example.com/org-hook' };
    // Without SMTP_URL an e-mail channel could never deliver: refused at creation.
    const mailless = await orgChannels(owner.token, 'POST', {
      name: 'Org mail',
      kind: 'email',
      addresses: ['ops@example.com'],
    });
    expect([mailless.status, mailless.body?.error]).toEqual([
      422,
      'kind email needs mail: SMTP_URL is not configured on this service',
    ]);
    // Nor could a webhook to a loopback address while private targets are off (before: created, then
    // every delivery failed with that reason in the history).
    const loopback = await orgChannels(owner.token, 'POST', { ...body, url: 'http://127.0.0.1:3942/hook' });
    expect([loopback.status, loopback.body?.error]).toEqual([
      422,
      'url: 127.0.0.1 is a loopback, private or link-local address; set ALERTS_ALLOW_PRIVATE_TARGETS=true to allow it',
    ]);
    const refused = await orgChannels(members.get('write')!, 'POST', body);
    expect([refused.status, refused.body?.error]).toEqual([403, 'this needs the admin role in the organization']);
    const created = await orgChannels(owner.token, 'POST', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      scope: 'organization',
      projectId: null,
      organizationId: owner.organization.id,
    });
    expect(((await orgChannels(members.get('read-only')!, 'GET')).body!.items as unknown[]).length).toBe(1);
    // The project's list shows its organization's channels too, and a project rule may use them.
    const projectList = await call(service.app, {
      method: 'GET',
      url: `/api/alert-channels?projectId=${owner.project.id}`,
      headers: bearer(members.get('read-only')!),
    });
    expect((projectList.body!.items as Array<{ id: string }>).map((item) => item.id)).toContain(created.body!.id);
    const ruleResponse = await call(service.app, {
      method: 'POST',
      url: `/api/alert-rules?projectId=${owner.project.id}`,
      headers: bearer(members.get('write')!),
      payload: { name: 'r', kind: 'new_issue', channelIds: [created.body!.id] },
    });
    expect(ruleResponse.status).toBe(201);
    // A project scope cannot delete the organization's channel; the admin can.
    const fromProject = await call(service.app, {
      method: 'DELETE',
      url: `/api/alert-channels/${created.body!.id}?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
    });
    expect(fromProject.status).toBe(404);
    const deleted = await call(service.app, {
      method: 'DELETE',
      url: `/api/alert-channels/${created.body!.id}?organizationId=${owner.organization.id}`,
      headers: bearer(owner.token),
    });
    expect(deleted.body).toEqual({ deleted: true });
  });

  it('reminders: 4 hours by default for a threshold rule, never for an event rule; bad values are refused, saying why', async () => {
    const rules = (token: string, method: 'POST' | 'PUT', payload: object, id = '', projectId = owner.project.id) =>
      call(service.app, {
        method,
        url: `/api/alert-rules${id ? `/${id}` : ''}?projectId=${projectId}`,
        headers: bearer(token),
        payload,
      });
    const latency = { name: 'Slow', kind: 'endpoint_latency', params: { thresholdMs: 500 } };
    const created = await rules(owner.token, 'POST', latency);
    expect([created.status, created.body?.repeatIntervalSeconds]).toEqual([201, 14_400]);
    const newIssue = await rules(owner.token, 'POST', { name: 'New', kind: 'new_issue' });
    expect([newIssue.status, newIssue.body?.repeatIntervalSeconds]).toEqual([201, null]);
    const id = created.body!.id as string;

    const refused: Array<[object, number, string | RegExp]> = [
      [{ ...latency, repeatIntervalSeconds: 299 }, 400, /body\/repeatIntervalSeconds must be >= 300$/],
      [{ ...latency, repeatIntervalSeconds: 604_801 }, 400, /body\/repeatIntervalSeconds must be <= 604800$/],
      [{ ...latency, repeatIntervalSeconds: 3600.5 }, 400, /body\/repeatIntervalSeconds must be integer/],
      [{ ...latency, repeatIntervalSeconds: '4h' }, 400, /body\/repeatIntervalSeconds must be integer/],
      [
        { name: 'New', kind: 'regression', repeatIntervalSeconds: 3600 },
        422,
        'repeatIntervalSeconds must be null for a regression rule: each of its news is notified as it comes, never reminded',
      ],
    ];
    for (const [payload, status, error] of refused) {
      for (const response of [await rules(owner.token, 'POST', payload), await rules(owner.token, 'PUT', payload, id)])
        expect([response.status, response.body], JSON.stringify(payload)).toEqual([
          status,
          { error: typeof error === 'string' ? error : expect.stringMatching(error) },
        ]);
    }

    // Replacing the rule: a given value is kept, null stops reminders, an omitted one is left as it was.
    const hourly = await rules(members.get('write')!, 'PUT', { ...latency, repeatIntervalSeconds: 3600 }, id);
    expect([hourly.status, hourly.body?.repeatIntervalSeconds]).toEqual([200, 3600]);
    expect((await rules(owner.token, 'PUT', { ...latency, name: 'Slower' }, id)).body?.repeatIntervalSeconds).toBe(
      3600,
    );
    expect(
      (await rules(owner.token, 'PUT', { ...latency, repeatIntervalSeconds: null }, id)).body?.repeatIntervalSeconds,
    ).toBeNull();

    // Another organization's member, or a read-only one, changes nothing of it.
    const change = { ...latency, repeatIntervalSeconds: 86_400 };
    const foreign = await rules(stranger.token, 'PUT', change, id);
    expect([foreign.status, foreign.body]).toEqual([403, { error: 'Access denied' }]);
    const elsewhere = await rules(stranger.token, 'PUT', change, id, stranger.project.id);
    expect([elsewhere.status, elsewhere.body]).toEqual([404, { error: 'no such alert rule in this project' }]);
    const readOnly = await rules(members.get('read-only')!, 'PUT', change, id);
    expect(readOnly.status).toBe(403);
    const stored = await call(service.app, {
      method: 'GET',
      url: `/api/alert-rules/${id}?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
    });
    expect(stored.body).toMatchObject({ name: 'Slow', repeatIntervalSeconds: null });
  });

  it('another organization sees, uses and changes nothing of these', async () => {
    const channel = await call(service.app, {
      method: 'POST',
      url: `/api/alert-channels?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
      payload: { name: 'Hook', kind: 'webhook', url: 'https://example.com/hook' },
    });
    expect(channel.status).toBe(201);
    const denied = [
      await orgChannels(stranger.token, 'GET'),
      await call(service.app, {
        method: 'GET',
        url: `/api/alert-channels?projectId=${owner.project.id}`,
        headers: bearer(stranger.token),
      }),
      await call(service.app, {
        method: 'GET',
        url: `/api/alert-events?projectId=${owner.project.id}`,
        headers: bearer(stranger.token),
      }),
      await call(service.app, {
        method: 'POST',
        url: `/api/alert-channels/${channel.body!.id}/test?projectId=${owner.project.id}`,
        headers: bearer(stranger.token),
      }),
    ];
    for (const response of denied) expect([response.status, response.body]).toEqual([403, { error: 'Access denied' }]);
    // From the stranger's own project the channel does not exist, and cannot be used by a rule.
    const testSend = await call(service.app, {
      method: 'POST',
      url: `/api/alert-channels/${channel.body!.id}/test?projectId=${stranger.project.id}`,
      headers: bearer(stranger.token),
    });
    expect(testSend.status).toBe(404);
    const rule = await call(service.app, {
      method: 'POST',
      url: `/api/alert-rules?projectId=${stranger.project.id}`,
      headers: bearer(stranger.token),
      payload: { name: 'r', kind: 'new_issue', channelIds: [channel.body!.id] },
    });
    expect([rule.status, rule.body?.error]).toEqual([
      422,
      'channelIds[0] is not an alert channel of this project or its organization',
    ]);
  });
});
