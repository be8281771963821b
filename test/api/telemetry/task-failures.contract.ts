/**
 * Task failures through HTTP, on one telemetry engine. The report protocol sends every task with
 * statusCode 0, so a run fails when an exception (not a message) was recorded on it; an OTLP task
 * also fails on an ERROR span status (stored as 500). The task list, the task detail and the
 * homepage figures count the same runs, and only the project's own exceptions.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, reportFrame, startTestService, type TestService } from '../../support/service.js';
import {
  telemetryEngineEnvironment,
  type EngineEnvironment,
  type TelemetryEngineName,
} from '../../support/telemetry-engines.js';

const MS = 1_000_000;
const MINUTE = 60_000;
const at = (ms: number) => new Date(ms).toISOString();
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const uuidOfHex = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
const STACK = 'SyncError: upstream refused\nsyncInventory()\n    /app/jobs/sync.go:17\n';

interface TaskItem {
  name: string;
  count: number;
  failures: number;
}

export function taskFailuresContract(engine: TelemetryEngineName): void {
  describe(`task failures on ${engine}`, () => {
    let environment: EngineEnvironment;
    let service: TestService;
    let owner: Awaited<ReturnType<typeof registerUser>>;
    let other: Awaited<ReturnType<typeof registerUser>>;
    const now = Date.now();
    /** Ids of the runs expected to fail, per task name. */
    const failed: Record<string, string[]> = {};
    /** A run of `late` whose exception lands after the end of the range read for it. */
    const lateRange = { fromDate: at(now - 60 * MINUTE), toDate: at(now - 20 * MINUTE) };

    const post = (url: string, body: unknown, user = owner) =>
      service.app.inject({
        method: 'POST',
        url: `${url}?projectId=${user.project.id}`,
        headers: { authorization: `Bearer ${user.token}` },
        payload: body as object,
      });
    const get = (url: string, user = owner) =>
      service.app.inject({
        method: 'GET',
        url: `${url}?projectId=${user.project.id}`,
        headers: { authorization: `Bearer ${user.token}` },
      });
    const tasks = async (body: unknown = {}, user = owner): Promise<TaskItem[]> => {
      const response = await post('/api/tasks', body, user);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().items;
    };
    const failuresOf = async (name: string, body: unknown = {}) =>
      (await tasks(body)).find((item) => item.name === name)?.failures;
    const detailOf = async (name: string, body: Record<string, unknown> = {}) => {
      const response = await post('/api/tasks/detail', { ...body, name });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        count: number;
        serverErrors: number;
        series: { errors: number[] };
        failing: Array<{ id: string }>;
      };
    };
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

    /** A native-protocol task run (statusCode 0), `startMs` its start. */
    const run = (name: string, startMs: number, durationMs: number) => ({
      id: randomUUID(),
      endpoint: name,
      duration: durationMs * MS,
      recordedAt: at(startMs),
      statusCode: 0,
      bodySize: 0,
      clientIP: '',
      isTask: true,
    });
    /** An exception (or message) recorded on a task run, at `recordedMs` (a run's end). */
    const onTask = (traceId: string, recordedMs: number, isMessage = false) => ({
      traceId,
      isTask: true,
      stackTrace: isMessage ? 'inventory sync slower than usual' : STACK,
      recordedAt: at(recordedMs),
      isMessage,
    });

    beforeAll(async () => {
      environment = await telemetryEngineEnvironment(engine);
      service = await startTestService({ ...environment.env });
      owner = await registerUser(service.app);
      other = await registerUser(service.app);

      const traces: ReturnType<typeof run>[] = [];
      const stackTraces: ReturnType<typeof onTask>[] = [];
      const foreign: ReturnType<typeof onTask>[] = [];

      // "report-fails": 3 runs, the second with an exception at its end (30 s after its row).
      const reportRuns = [0, 1, 2].map((i) => run('report-fails', now - (10 + i) * MINUTE, 30_000));
      traces.push(...reportRuns);
      stackTraces.push(onTask(reportRuns[1]!.id, now - 11 * MINUTE + 30_000));
      failed['report-fails'] = [reportRuns[1]!.id];

      // "report-message": one run with an exception, one with only a message (no failure).
      const messageRuns = [0, 1].map((i) => run('report-message', now - (12 + i) * MINUTE, 1000));
      traces.push(...messageRuns);
      stackTraces.push(onTask(messageRuns[0]!.id, now - 12 * MINUTE + 1000));
      stackTraces.push(onTask(messageRuns[1]!.id, now - 13 * MINUTE + 1000, true));
      failed['report-message'] = [messageRuns[0]!.id];

      // "cross-tenant": one run failed in this project; the other's id carries an exception
      // reported by another project, which is not this run's.
      const tenantRuns = [0, 1].map((i) => run('cross-tenant', now - (14 + i) * MINUTE, 1000));
      traces.push(...tenantRuns);
      stackTraces.push(onTask(tenantRuns[0]!.id, now - 14 * MINUTE + 1000));
      foreign.push(onTask(tenantRuns[1]!.id, now - 15 * MINUTE + 1000));
      failed['cross-tenant'] = [tenantRuns[0]!.id];

      // "late": a 30 min run starting 30 min ago; its exception lands 5 s ago, after the end
      // of lateRange (20 min ago), which holds the run's row.
      const lateRun = run('late', now - 30 * MINUTE, 30 * MINUTE - 5000);
      traces.push(lateRun);
      stackTraces.push(onTask(lateRun.id, now - 5000));
      failed.late = [lateRun.id];

      // "GET /ok": an endpoint request answered 200 with an exception: no server error.
      traces.push({ ...run('GET /ok', now - 9 * MINUTE, 5), isTask: false, statusCode: 200, bodySize: 2 });
      stackTraces.push({ ...onTask(traces.at(-1)!.id, now - 9 * MINUTE), isTask: false });

      await reportFrame(service.app, owner.project.token, { traces, stackTraces });
      await reportFrame(service.app, other.project.token, { stackTraces: foreign });

      // "otlp-task": root CONSUMER spans. ERROR status without an exception (500), an exception
      // with the status unset (0), both (500 and an exception: one failure), and a clean run.
      const otlpRuns = [
        { error: true, exception: false },
        { error: false, exception: true },
        { error: true, exception: true },
        { error: false, exception: false },
      ].map((shape, i) => ({ ...shape, traceHex: hex(16), startNs: BigInt(now - (16 + i) * MINUTE) * 1_000_000n }));
      failed['otlp-task'] = otlpRuns.filter((r) => r.error || r.exception).map((r) => uuidOfHex(r.traceHex));
      const response = await service.app.inject({
        method: 'POST',
        url: '/api/otel/v1/traces',
        headers: { authorization: `Bearer ${owner.project.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({
          resourceSpans: [
            {
              resource: { attributes: [{ key: 'service.name', value: { stringValue: 'worker' } }] },
              scopeSpans: [
                {
                  spans: otlpRuns.map((r) => ({
                    traceId: r.traceHex,
                    spanId: hex(8),
                    name: 'otlp-task',
                    kind: 5,
                    startTimeUnixNano: String(r.startNs),
                    endTimeUnixNano: String(r.startNs + 2000n * 1_000_000n),
                    status: r.error ? { code: 2, message: 'failed' } : {},
                    events: r.exception
                      ? [
                          {
                            name: 'exception',
                            timeUnixNano: String(r.startNs + 2000n * 1_000_000n),
                            attributes: [
                              { key: 'exception.type', value: { stringValue: 'SyncError' } },
                              { key: 'exception.message', value: { stringValue: 'upstream refused' } },
                            ],
                          },
                        ]
                      : [],
                  })),
                },
              ],
            },
          ],
        }),
      });
      expect(response.statusCode, response.body).toBe(200);
    });

    afterAll(async () => {
      await service?.close();
      await environment?.dispose();
    });

    it('counts a report-protocol task run (statusCode 0) with an exception as a failure: list and detail', async () => {
      expect(await failuresOf('report-fails')).toBe(1);
      const detail = await detailOf('report-fails');
      expect(detail.count).toBe(3);
      expect(detail.serverErrors).toBe(1);
      expect(sum(detail.series.errors)).toBe(1);
      expect(detail.failing.map((trace) => trace.id)).toEqual(failed['report-fails']);
      // Endpoints stay on status codes: an exception on a 200 request is no server error.
      const endpoint = await post('/api/endpoints/detail', { name: 'GET /ok' });
      expect(endpoint.statusCode, endpoint.body).toBe(200);
      expect(endpoint.json()).toMatchObject({ count: 1, serverErrors: 0, failing: [] });
    });

    it('does not count a run with only a message recorded on it', async () => {
      expect(await failuresOf('report-message')).toBe(1);
      const detail = await detailOf('report-message');
      expect(detail.serverErrors).toBe(1);
      expect(sum(detail.series.errors)).toBe(1);
      expect(detail.failing.map((trace) => trace.id)).toEqual(failed['report-message']);
    });

    it('counts an OTLP task run with an ERROR status (500) or an exception, once each', async () => {
      expect(await failuresOf('otlp-task')).toBe(3);
      const detail = await detailOf('otlp-task');
      expect(detail.count).toBe(4);
      expect(detail.serverErrors).toBe(3);
      expect(sum(detail.series.errors)).toBe(3);
      expect(detail.failing.map((trace) => trace.id).sort()).toEqual([...failed['otlp-task']!].sort());
    });

    it("does not count another project's exception linked to a run's id", async () => {
      expect(await failuresOf('cross-tenant')).toBe(1);
      const detail = await detailOf('cross-tenant');
      expect(detail.serverErrors).toBe(1);
      expect(detail.failing.map((trace) => trace.id)).toEqual(failed['cross-tenant']);
      // The other project has no tasks, hence no failures, though it holds the exception.
      expect(await tasks({}, other)).toEqual([]);
      const stats = (await post('/api/stats', {}, other)).json();
      expect(stats).toMatchObject({ tasks: 0, taskFailures: 0, exceptions: 1 });
    });

    it("counts an exception recorded after the range's end on a run within it", async () => {
      expect(await failuresOf('late', lateRange)).toBe(1);
      const detail = await detailOf('late', lateRange);
      expect(detail).toMatchObject({ count: 1, serverErrors: 1 });
      expect(detail.failing.map((trace) => trace.id)).toEqual(failed.late);
      expect((await post('/api/stats', lateRange)).json()).toMatchObject({ tasks: 1, taskFailures: 1 });
    });

    it('counts the same failures in the homepage figures and overview', async () => {
      const expected = Object.values(failed).reduce((n, ids) => n + ids.length, 0);
      expect(expected).toBe(7);
      expect(sum((await tasks()).map((item) => item.failures))).toBe(expected);
      const stats = (await post('/api/stats', {})).json();
      expect(stats).toMatchObject({ tasks: 12, taskFailures: expected });
      const overview = await get('/api/dashboard/overview');
      expect(overview.statusCode, overview.body).toBe(200);
      expect(overview.json().stats).toMatchObject({ tasks: 12, taskFailures: expected });
    });
  });
}
