/**
 * Reads start no earlier than the organization's plan keeps, on chDB: rows older than the plan's
 * retention are deleted by the retention job about hourly, and until it runs again no list,
 * detail or aggregate read answers them. A range wholly before the retention is answered empty,
 * as a range older than the tables' TTLs is (200, not 422); a read by id answers as if the old
 * rows were gone (404, or without them). The retention job ran at start, before the rows were
 * written, and does not run again here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanCatalogue } from '../../../src/core/plans.js';
import { bearer, writePlansFile } from '../../support/access.js';
import { registerUser, reportFrame, startTestService, type TestService } from '../../support/service.js';

const DAY_MS = 24 * 3600 * 1000;
const MS = 1_000_000;
const uuidOfHex = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
/** The default plan keeps 2 days (hot 1 + warm 1); "long" keeps 7. */
const CATALOGUE: PlanCatalogue = {
  defaultPlan: 'short',
  plans: [
    {
      code: 'short',
      name: 'Short',
      limits: {
        projects: 10,
        seats: 10,
        ingest_gb_monthly: 10,
        retention_days_hot: 1,
        retention_days_warm: 1,
        synthetics_checks: 0,
        session_recordings: 10,
      },
      currency: 'usd',
      prices: { month: null, year: null },
      stripePrices: {},
    },
    {
      code: 'long',
      name: 'Long',
      limits: {
        projects: 10,
        seats: 10,
        ingest_gb_monthly: 10,
        retention_days_hot: 7,
        retention_days_warm: 0,
        synthetics_checks: 0,
        session_recordings: 10,
      },
      currency: 'usd',
      prices: { month: null, year: null },
      stripePrices: {},
    },
  ],
};

describe('reads clamped to the plan retention (chDB)', () => {
  let service: TestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const nanosAgo = (ms: number) => (BigInt(Date.now() - ms) * 1_000_000n).toString();
  // One endpoint call 5 days ago (past the 2 days kept) and one an hour ago, in one distributed
  // trace with a call of the owner's second organization, on a plan keeping 7 days, 5 days ago.
  const oldTraceId = randomUUID();
  const keptTraceId = randomUUID();
  const longPlanTraceId = randomUUID();
  const distributedTraceId = randomUUID();
  // Sessions started 5 days ago and an hour ago; the errors above belong to the recent one.
  const oldSessionId = randomUUID();
  const keptSessionId = randomUUID();
  // LLM calls (OpenTelemetry roots: the trace id is the entity id) 5 days ago and an hour ago.
  const oldAiTraceHex = randomBytes(16).toString('hex');
  const keptAiTraceHex = randomBytes(16).toString('hex');
  // The project of the owner's second organization, on the plan keeping 7 days.
  let longPlanProjectId: string;
  const get = (url: string, projectId: string | null = owner.project.id) =>
    service.app.inject({
      method: 'GET',
      url: projectId ? `${url}?projectId=${projectId}` : url,
      headers: bearer(owner.token),
    });
  const post = async (url: string, body: object) => {
    const response = await service.app.inject({
      method: 'POST',
      url: `${url}?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
      payload: body,
    });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    service = await startTestService({ PLANS_FILE: writePlansFile(CATALOGUE) });
    owner = await registerUser(service.app);
    // One call and one error 5 days ago (past the 2 days kept), one of each an hour ago.
    const trace = (id: string, recordedAt: string, spans: Array<{ name: string; startTime: string }>) => ({
      id,
      endpoint: 'GET /orders',
      duration: 20 * MS,
      recordedAt,
      statusCode: 200,
      bodySize: 10,
      clientIP: '198.51.100.1',
      distributedTraceId,
      spans: spans.map((span) => ({ id: randomUUID(), duration: MS, ...span })),
    });
    const error = (recordedAt: string) => ({
      stackTrace: 'Error: boom\nmain()\n    /app/main.go:10',
      recordedAt,
      isMessage: false,
      sessionId: keptSessionId,
    });
    await reportFrame(service.app, owner.project.token, {
      traces: [
        trace(oldTraceId, ago(5 * DAY_MS), [{ name: 'db.old', startTime: ago(5 * DAY_MS) }]),
        // A span stamped 5 days ago by a skewed clock is past the retention too, as the job sees it.
        trace(keptTraceId, ago(3600_000), [
          { name: 'db.skewed', startTime: ago(5 * DAY_MS) },
          { name: 'db.kept', startTime: ago(3600_000) },
        ]),
      ],
      stackTraces: [error(ago(5 * DAY_MS)), error(ago(3600_000))],
      sessions: [
        { id: oldSessionId, startedAt: ago(5 * DAY_MS) },
        { id: keptSessionId, startedAt: ago(3600_000) },
      ],
      sessionRecordings: [
        { sessionId: keptSessionId, segmentIndex: 1, events: [{ type: 2 }], startedAt: ago(3000_000) },
      ],
    });
    // Segments received 5 days ago: the ingest stamps the arrival, so they are written as it did then.
    for (const [sessionId, segmentIndex] of [
      [oldSessionId, 0],
      [keptSessionId, 0],
    ] as const)
      await service.services.telemetry.command(
        `INSERT INTO session_recordings (project_id, session_id, segment_index, started_at, ended_at, object_key, received_at)
         SELECT {p:UUID}, {s:UUID}, {i:UInt32}, t, t, {key:String}, t FROM (SELECT now64(9) - INTERVAL 5 DAY AS t)`,
        {
          p: owner.project.id,
          s: sessionId,
          i: segmentIndex,
          key: `recordings/${owner.project.id}/${sessionId}/${segmentIndex}.json.gz`,
        },
      );
    const aiRoot = (traceHex: string, msAgo: number) => ({
      traceId: traceHex,
      spanId: randomBytes(8).toString('hex'),
      name: 'chat gpt-4o',
      kind: 3,
      startTimeUnixNano: nanosAgo(msAgo),
      endTimeUnixNano: nanosAgo(msAgo - 1000),
      attributes: Object.entries({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o',
      }).map(([key, value]) => ({ key, value: { stringValue: value } })),
    });
    const otlp = await service.app.inject({
      method: 'POST',
      url: '/api/otel/v1/traces',
      headers: { ...bearer(owner.project.token), 'content-type': 'application/json' },
      payload: JSON.stringify({
        resourceSpans: [
          { scopeSpans: [{ spans: [aiRoot(oldAiTraceHex, 5 * DAY_MS), aiRoot(keptAiTraceHex, 3600_000)] }] },
        ],
      }),
    });
    expect(otlp.statusCode, otlp.body).toBe(200);
    // The owner's second organization, subscribed to the plan keeping 7 days.
    const organization = await service.app.inject({
      method: 'POST',
      url: '/api/organizations',
      headers: bearer(owner.token),
      payload: { name: 'Long memory' },
    });
    expect(organization.statusCode, organization.body).toBe(201);
    const organizationId = organization.json().id as string;
    const project = await service.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: bearer(owner.token),
      payload: { name: 'Archive', framework: 'go', organizationId },
    });
    expect(project.statusCode, project.body).toBe(201);
    longPlanProjectId = project.json().id;
    await service.services.meta.query(
      "INSERT INTO subscriptions (organization_id, plan_code, status) VALUES ($1, 'long', 'active')",
      [organizationId],
    );
    await reportFrame(service.app, project.json().token, {
      traces: [{ ...trace(longPlanTraceId, ago(5 * DAY_MS), []), endpoint: 'GET /archive' }],
    });
    // The report is answered once its rows are stored: both are there, only the reads leave the old one out.
    const [stored] = await service.services.telemetry.query<{ n: string }>(
      'SELECT toString(count()) AS n FROM endpoints WHERE project_id = {p:UUID}',
      { p: owner.project.id },
    );
    expect(Number(stored!.n)).toBe(2);
  });
  afterAll(async () => service?.close());

  const week = () => ({ fromDate: ago(7 * DAY_MS), toDate: ago(0) });
  /** The group hash of the owner's errors whose stack trace starts with `title`. */
  const hashOf = async (title: string) => {
    const [row] = await service.services.telemetry.query<{ hash: string }>(
      'SELECT hash FROM exceptions WHERE project_id = {p:UUID} AND startsWith(stack_trace, {t:String}) LIMIT 1',
      { p: owner.project.id, t: title },
    );
    return row!.hash;
  };

  it('a list, a detail and an aggregate over a week answer only what the plan keeps', async () => {
    const list = await post('/api/endpoints', week());
    expect(list.items.map((item: { name: string; requests: number }) => [item.name, item.requests])).toEqual([
      ['GET /orders', 1],
    ]);
    const detail = await post('/api/endpoints/detail', { name: 'GET /orders', ...week() });
    expect(detail.count).toBe(1);
    const series = await post('/api/endpoints/series', week());
    const total = series.series
      .flatMap((s: { totalMs: number[] }) => s.totalMs)
      .reduce((a: number, b: number) => a + b, 0);
    expect(total).toBeCloseTo(20, 6);
    const issues = await post('/api/exception-stack-traces', week());
    expect(issues.items.map((item: { count: number }) => item.count)).toEqual([1]);
  });

  it('resolving in the next version reads no app version from an occurrence older than the plan keeps', async () => {
    await reportFrame(
      service.app,
      owner.project.token,
      {
        stackTraces: [
          { stackTrace: 'Error: gone\nold()\n    /app/old.go:3', recordedAt: ago(5 * DAY_MS), isMessage: false },
        ],
      },
      '0.9.0',
    );
    const [row] = await service.services.telemetry.query<{ hash: string }>(
      "SELECT hash FROM exceptions WHERE project_id = {p:UUID} AND app_version = '0.9.0'",
      { p: owner.project.id },
    );
    const resolve = await service.app.inject({
      method: 'PUT',
      url: `/api/exception-stack-traces/${row!.hash}/status?projectId=${owner.project.id}`,
      headers: bearer(owner.token),
      payload: { status: 'resolved', inNextVersion: true },
    });
    // Before: 200, resolved in the version after 0.9.0, read from a row the plan no longer keeps.
    expect(resolve.statusCode, resolve.body).toBe(422);
    expect(resolve.json().error).toMatch(
      /^no occurrence with an app version in the last 2 days for [0-9a-f]+: give version$/,
    );
  });

  it('a trace by id older than the plan keeps is not found; a kept one leaves out spans as old', async () => {
    const old = await get(`/api/traces/${oldTraceId}`);
    expect(old.statusCode, old.body).toBe(404);
    expect(old.json()).toEqual({ error: 'no such trace in this project' });
    const kept = await get(`/api/traces/${keptTraceId}`);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().spans.map((span: { name: string }) => span.name)).toEqual(['db.kept']);
  });

  it('an AI trace by id older than the plan keeps is not found', async () => {
    expect((await get(`/api/ai-traces/${uuidOfHex(oldAiTraceHex)}`)).statusCode).toBe(404);
    expect((await get(`/api/ai-traces/${uuidOfHex(keptAiTraceHex)}`)).statusCode).toBe(200);
  });

  it('a session by id, and its recording, answer only what the plan keeps', async () => {
    expect((await get(`/api/sessions/${oldSessionId}`)).statusCode).toBe(404);
    expect((await get(`/api/sessions/${oldSessionId}/recording`)).statusCode).toBe(404);
    const detail = await get(`/api/sessions/${keptSessionId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ errorCount: 1, recordingSegments: 1 });
    expect(detail.json().exceptions).toHaveLength(1);
    expect(detail.json().segments.map((segment: { segmentIndex: number }) => segment.segmentIndex)).toEqual([1]);
    const recording = await get(`/api/sessions/${keptSessionId}/recording`);
    expect(recording.statusCode, recording.body).toBe(200);
    expect(recording.json().segments.map((segment: { segmentIndex: number }) => segment.segmentIndex)).toEqual([1]);
  });

  it("a distributed trace shows each project's entities its own plan keeps; none kept is not found", async () => {
    const shared = await get(`/api/distributed-traces/${distributedTraceId}`, null);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(
      shared
        .json()
        .entities.map((entity: { id: string }) => entity.id)
        .sort(),
    ).toEqual([keptTraceId, longPlanTraceId].sort());
    const keptSpans = shared.json().entities.find((entity: { id: string }) => entity.id === keptTraceId).spans;
    expect(keptSpans.map((span: { name: string }) => span.name)).toEqual(['db.kept']);
    expect((await get(`/api/distributed-traces/${uuidOfHex(oldAiTraceHex)}`, null)).statusCode).toBe(404);
  });

  it('a session started before the plan keeps has no recording, however late its segments arrived', async () => {
    const lateSessionId = randomUUID();
    // The session began 5 days ago; its segment and an error in it arrive now.
    await reportFrame(service.app, owner.project.token, {
      sessions: [{ id: lateSessionId, startedAt: ago(5 * DAY_MS) }],
      sessionRecordings: [{ sessionId: lateSessionId, segmentIndex: 0, events: [{ type: 2 }], startedAt: ago(60_000) }],
      stackTraces: [
        {
          stackTrace: 'Error: late\nlate()\n    /app/late.go:7',
          recordedAt: ago(60_000),
          isMessage: false,
          sessionId: lateSessionId,
        },
      ],
    });
    expect((await get(`/api/sessions/${lateSessionId}`)).statusCode).toBe(404);
    // Before: 200, the recording of a session its detail did not find.
    const recording = await get(`/api/sessions/${lateSessionId}/recording`);
    expect(recording.statusCode, recording.body).toBe(404);
    expect(recording.json()).toEqual({ error: 'no recording for this session' });

    // The error is kept, but does not offer the recording (before: hasRecording true).
    const occurrences = async (title: string) =>
      (await post(`/api/exception-stack-traces/${await hashOf(title)}`, week())).items.map(
        (item: { sessionId: string; hasRecording: boolean }) => [item.sessionId, item.hasRecording],
      );
    expect(await occurrences('Error: late')).toEqual([[lateSessionId, false]]);
    expect(await occurrences('Error: boom')).toEqual([[keptSessionId, true]]);
  });

  it('an issue links the endpoint call of its error without the name of a call older than the plan keeps', async () => {
    // A call 2½ days ago (past the 2 days kept, within the day the link looks back) and its error an hour ago.
    const expiredCallId = randomUUID();
    await reportFrame(service.app, owner.project.token, {
      traces: [
        {
          id: expiredCallId,
          endpoint: 'GET /expired',
          duration: MS,
          recordedAt: ago(2.5 * DAY_MS),
          statusCode: 500,
          bodySize: 1,
          clientIP: '',
        },
      ],
      stackTraces: [
        {
          stackTrace: 'Error: orphan\norphan()\n    /app/orphan.go:5',
          recordedAt: ago(3600_000),
          isMessage: false,
          traceId: expiredCallId,
        },
      ],
    });
    const expectedLink = { kind: 'endpoint', id: expiredCallId, name: null };
    // Before: name 'GET /expired', the name of a call whose page is not found.
    expect((await get(`/api/traces/${expiredCallId}`)).statusCode).toBe(404);
    const issues = await post('/api/exception-stack-traces', { ...week(), search: 'orphan' });
    expect(issues.items.map((item: { linked: unknown }) => item.linked)).toEqual([expectedLink]);
    const occurrences = await post(`/api/exception-stack-traces/${await hashOf('Error: orphan')}`, week());
    expect(occurrences.items.map((item: { linked: unknown }) => item.linked)).toEqual([expectedLink]);
  });

  it('the session list counts only the recording segments the plan keeps, as the detail does', async () => {
    const list = await post('/api/sessions', week());
    const kept = list.items.find((item: { id: string }) => item.id === keptSessionId);
    // Before: 2, with segment 0 received 5 days ago.
    expect(kept).toMatchObject({ recordingSegments: 1 });
  });

  it('data status: a project whose every event is older than its plan keeps holds no data', async () => {
    const expired = await registerUser(service.app);
    await reportFrame(service.app, expired.project.token, {
      traces: [
        {
          id: randomUUID(),
          endpoint: 'GET /old',
          duration: MS,
          recordedAt: ago(5 * DAY_MS),
          statusCode: 200,
          bodySize: 1,
          clientIP: '',
        },
      ],
    });
    const status = (projectId: string, token = owner.token) =>
      service.app.inject({
        method: 'GET',
        url: `/api/projects/data-status?projectId=${projectId}`,
        headers: bearer(token),
      });
    // Before: hasData true, from a call the dashboard shows nowhere (the Connection page said
    // "received data before; check that your application still sends it").
    const answer = await status(expired.project.id, expired.token);
    expect(answer.statusCode, answer.body).toBe(200);
    // It received data once (its usage is kept whatever the plan): not a project waiting for its first.
    expect(answer.json()).toEqual({ lastEventAt: null, hasData: false, expiredData: true });
    // The same 5-day-old call on the plan keeping 7 days is data, though not recent.
    expect((await status(longPlanProjectId)).json()).toEqual({ lastEventAt: null, hasData: true, expiredData: false });
    // A project that never received anything is waiting for its first data.
    const fresh = await registerUser(service.app);
    expect((await status(fresh.project.id, fresh.token)).json()).toEqual({
      lastEventAt: null,
      hasData: false,
      expiredData: false,
    });
    // Usage an earlier version recorded in the telemetry store says so too.
    const upgraded = await registerUser(service.app);
    await service.services.telemetry.command(
      `INSERT INTO ingest_usage (project_id, organization_id, month, bytes, requests, skipped_records)
       VALUES ({project:UUID}, {organization:UUID}, toStartOfMonth(today()), 1000, 1, 0)`,
      { project: upgraded.project.id, organization: upgraded.organization.id },
    );
    expect((await status(upgraded.project.id, upgraded.token)).json()).toMatchObject({ expiredData: true });
    // Neither is for another organization's member to read.
    expect((await status(expired.project.id, fresh.token)).statusCode).toBe(403);
    expect((await status(fresh.project.id, expired.token)).statusCode).toBe(403);
    expect((await status(owner.project.id)).json()).toMatchObject({ hasData: true, lastEventAt: expect.any(String) });
  });

  it('a range wholly before the retention answers empty', async () => {
    const before = { fromDate: ago(6 * DAY_MS), toDate: ago(4 * DAY_MS) };
    expect((await post('/api/endpoints', before)).items).toEqual([]);
    expect((await post('/api/exception-stack-traces', before)).items).toEqual([]);
    expect((await post('/api/endpoints/detail', { name: 'GET /orders', ...before })).count).toBe(0);
  });
});
