/**
 * The issue workflow through the real routes: exceptions sent to /api/report register issues;
 * people resolve (optionally in the next version) or ignore (for ever, until a time, until N
 * more occurrences) them; a later occurrence regresses or reopens them; the list filters and
 * shows statuses; every change is in the issue's activity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionHash } from '../../src/core/grouping.js';
import { registerUser, reportFrame, startTestService, type TestService } from '../support/service.js';
import { MINUTE, TestClock, bearer, call } from '../support/access.js';

describe('issue status', () => {
  const clock = new TestClock();
  let service: TestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let stranger: Awaited<ReturnType<typeof registerUser>>;
  let counter = 0;

  beforeAll(async () => {
    service = await startTestService({}, { now: clock.now });
    owner = await registerUser(service.app);
    stranger = await registerUser(service.app);
  });
  afterAll(async () => service?.close());

  /** A distinct error type per call, so each test has its own issue; returns its hash. */
  function newError(): { trace: string; hash: string } {
    counter++;
    const trace = `IssueTestError${counter}: broke\nmain.handler${counter}()\n    /srv/app/main.go:${10 + counter}`;
    return { trace, hash: exceptionHash(trace, false) };
  }
  async function send(trace: string, appVersion = '1.0.0', times = 1) {
    const stackTraces = Array.from({ length: times }, (_, index) => ({
      stackTrace: trace,
      recordedAt: new Date(clock.now() - 1000 + index).toISOString(),
      isMessage: false,
    }));
    await reportFrame(service.app, owner.project.token, { stackTraces }, appVersion);
    await service.services.issues.idle();
    clock.advance(1000);
  }
  const setStatus = (hash: string, payload: object, token = owner.token) =>
    call(service.app, {
      method: 'PUT',
      url: `/api/exception-stack-traces/${hash}/status?projectId=${owner.project.id}`,
      headers: bearer(token),
      payload,
    });
  const activity = async (hash: string) =>
    (
      await call(service.app, {
        method: 'GET',
        url: `/api/exception-stack-traces/${hash}/activity?projectId=${owner.project.id}`,
        headers: bearer(owner.token),
      })
    ).body!.items as Array<Record<string, any>>;
  async function listItem(hash: string, status?: string) {
    const response = await call(service.app, {
      method: 'POST',
      url: `/api/exception-stack-traces?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
      payload: {
        fromDate: new Date(clock.now() - 3600_000).toISOString(),
        toDate: new Date(clock.now() + 60_000).toISOString(),
        ...(status ? { status } : {}),
        pagination: { page: 1, pageSize: 500 },
      },
    });
    expect(response.status).toBe(200);
    return (response.body!.items as Array<Record<string, any>>).find((item) => item.hash === hash);
  }

  it('a first occurrence registers a new issue, open, with a "new" activity entry', async () => {
    const error = newError();
    await send(error.trace);
    expect(await listItem(error.hash)).toMatchObject({ status: 'open', regressedAt: null, statusChangedBy: null });
    expect((await activity(error.hash)).map((entry) => entry.kind)).toEqual(['new']);
  });

  it('resolving, then an occurrence, regresses the issue with its time and version; the list and activity show it', async () => {
    const error = newError();
    await send(error.trace);
    const resolved = await setStatus(error.hash, { status: 'resolved' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ hash: error.hash, status: 'resolved', statusChangedBy: owner.user.id });
    expect(await listItem(error.hash, 'resolved')).toMatchObject({
      status: 'resolved',
      statusChangedBy: { id: owner.user.id },
    });
    expect(await listItem(error.hash, 'open')).toBeUndefined();

    await send(error.trace, '1.0.1');
    const item = await listItem(error.hash, 'open');
    expect(item).toMatchObject({ status: 'open', regressedVersion: '1.0.1', statusChangedBy: null });
    expect(item!.regressedAt).not.toBeNull();
    const kinds = (await activity(error.hash)).map((entry) => [entry.kind, entry.toStatus, entry.user?.id ?? null]);
    expect(kinds).toEqual([
      ['regressed', 'open', null],
      ['status', 'resolved', owner.user.id],
      ['new', 'open', null],
    ]);
  });

  it('resolved in the next version: occurrences of that version or older do not regress it, a newer one does', async () => {
    const error = newError();
    await send(error.trace, '2.3.0');
    const resolved = await setStatus(error.hash, { status: 'resolved', inNextVersion: true });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedInVersion: '2.3.0' });
    await send(error.trace, '2.3.0');
    await send(error.trace, '2.2.9');
    expect((await listItem(error.hash))!.status).toBe('resolved');
    await send(error.trace, '2.10.0');
    expect(await listItem(error.hash)).toMatchObject({ status: 'open', regressedVersion: '2.10.0' });
  });

  it('ignored until N more occurrences reopens after the Nth; ignored until a time reopens after it; ignored for ever stays', async () => {
    const counted = newError();
    const timed = newError();
    const forever = newError();
    for (const error of [counted, timed, forever]) await send(error.trace);
    expect((await setStatus(counted.hash, { status: 'ignored', occurrences: 3 })).body).toMatchObject({
      status: 'ignored',
      ignoreOccurrences: 3,
    });
    expect(
      (await setStatus(timed.hash, { status: 'ignored', until: new Date(clock.now() + 10 * MINUTE).toISOString() }))
        .status,
    ).toBe(200);
    expect((await setStatus(forever.hash, { status: 'ignored' })).status).toBe(200);

    await send(counted.trace, '1.0.0', 2);
    await send(timed.trace);
    await send(forever.trace, '1.0.0', 5);
    expect((await listItem(counted.hash))!.status).toBe('ignored');
    expect((await listItem(timed.hash))!.status).toBe('ignored');
    await send(counted.trace);
    clock.advance(11 * MINUTE);
    await send(timed.trace);
    expect((await listItem(counted.hash))!.status).toBe('open');
    expect((await listItem(timed.hash))!.status).toBe('open');
    expect((await listItem(forever.hash))!.status).toBe('ignored');
    expect((await activity(counted.hash))[0]).toMatchObject({ kind: 'reopened', detail: { reason: 'ignore-count' } });
    expect((await activity(timed.hash))[0]).toMatchObject({ kind: 'reopened', detail: { reason: 'ignore-expired' } });
  });

  it('the bulk route changes many issues in one call and records each', async () => {
    const errors = [newError(), newError(), newError()];
    for (const error of errors) await send(error.trace);
    const response = await call(service.app, {
      method: 'PUT',
      url: `/api/exception-stack-traces/status?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
      payload: { hashes: errors.map((error) => error.hash), status: 'resolved' },
    });
    expect(response.status).toBe(200);
    expect((response.body!.items as unknown[]).length).toBe(3);
    for (const error of errors)
      expect((await activity(error.hash))[0]).toMatchObject({ kind: 'status', toStatus: 'resolved' });
  });

  it('refuses bad input with the field named, and other organizations', async () => {
    const error = newError();
    await send(error.trace);
    const cases: Array<[object, number, RegExp]> = [
      [{ status: 'closed' }, 400, /status/],
      [{}, 400, /status/],
      [{ status: 'ignored', until: 'tomorrow' }, 422, /until/],
      [{ status: 'ignored', until: new Date(clock.now() - 1000).toISOString() }, 422, /until/],
      [{ status: 'ignored', occurrences: 0 }, 400, /occurrences/],
      [{ status: 'resolved', version: '1.0.0' }, 422, /version/],
    ];
    for (const [payload, status, message] of cases) {
      const response = await setStatus(error.hash, payload);
      expect([response.status, response.body?.error], JSON.stringify(payload)).toEqual([
        status,
        expect.stringMatching(message),
      ]);
    }
    expect(
      (
        await call(service.app, {
          method: 'PUT',
          url: `/api/exception-stack-traces/nothex/status?projectId=${owner.project.id}`,
          headers: bearer(owner.token),
          payload: { status: 'open' },
        })
      ).status,
    ).toBe(400);
    const foreign = await setStatus(error.hash, { status: 'resolved' }, stranger.token);
    expect([foreign.status, foreign.body]).toEqual([403, { error: 'Access denied' }]);
    const foreignActivity = await call(service.app, {
      method: 'GET',
      url: `/api/exception-stack-traces/${error.hash}/activity?projectId=${owner.project.id}`,
      headers: bearer(stranger.token),
    });
    expect(foreignActivity.status).toBe(403);
    // The stranger's own project holds no activity of the owner's issue.
    const own = await call(service.app, {
      method: 'GET',
      url: `/api/exception-stack-traces/${error.hash}/activity?projectId=${stranger.project.id}`,
      headers: bearer(stranger.token),
    });
    expect(own.body).toEqual({ items: [] });
  });
});
