/**
 * The telemetry read API through HTTP, on one telemetry engine: data goes in through the real
 * ingest routes (POST /api/report and OTLP/JSON), and every read route is checked against what
 * was sent, including the Impact components of crafted endpoints computed by hand below.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERFETCH_MAX_ROWS } from '../../../src/store/telemetry/queries/logs.js';
import { setQueryLimits } from '../../../src/store/telemetry/queries/run.js';
import { registerUser, reportFrame, startTestService, type TestService } from '../../support/service.js';
import {
  telemetryEngineEnvironment,
  type EngineEnvironment,
  type TelemetryEngineName,
} from '../../support/telemetry-engines.js';

const MS = 1_000_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const nanosAgo = (ms: number) => (BigInt(Date.now() - ms) * 1_000_000n).toString();
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const uuidOfHex = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
const attrs = (record: Record<string, string | number>) =>
  Object.entries(record).map(([key, value]) => ({
    key,
    value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value },
  }));

export function readApiContract(engine: TelemetryEngineName): void {
  describe(`telemetry read API on ${engine}`, () => {
    let environment: EngineEnvironment;
    let service: TestService;
    let owner: Awaited<ReturnType<typeof registerUser>>;
    let stranger: Awaited<ReturnType<typeof registerUser>>;
    const checkoutIds: string[] = [];
    const sessionId = randomUUID();
    const otelTraceHex = hex(16);
    const aiSpanHex = hex(8);
    let exceptionHash = '';

    const post = (url: string, body: unknown, token = owner.token, projectId = owner.project.id) =>
      service.app.inject({
        method: 'POST',
        url: `${url}${url.includes('?') ? '&' : '?'}projectId=${projectId}`,
        headers: { authorization: `Bearer ${token}` },
        payload: body as object,
      });
    const get = (url: string, token = owner.token, projectId: string | null = owner.project.id) =>
      service.app.inject({
        method: 'GET',
        url: projectId ? `${url}${url.includes('?') ? '&' : '?'}projectId=${projectId}` : url,
        headers: { authorization: `Bearer ${token}` },
      });

    const report = async (frame: Parameters<typeof reportFrame>[2]) => {
      await reportFrame(service.app, owner.project.token, frame);
    };
    const otlp = async (signal: 'traces' | 'metrics' | 'logs', body: unknown, projectToken = owner.project.token) => {
      const response = await service.app.inject({
        method: 'POST',
        url: `/api/otel/v1/${signal}`,
        headers: { authorization: `Bearer ${projectToken}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode, response.body).toBe(200);
    };

    beforeAll(async () => {
      environment = await telemetryEngineEnvironment(engine);
      service = await startTestService({ ...environment.env });
      owner = await registerUser(service.app);
      stranger = await registerUser(service.app);

      // Crafted endpoints (T = 100 ms in the Impact test):
      // GET /checkout: 10 requests; 5 x 50 ms, 3 x 200 ms, 2 x 1000 ms; the two slow ones 500, one fast one 404.
      // GET /health: 20 x 10 ms, 200. UNMATCHED: 4 x 10 ms, 404.
      const traces: Record<string, unknown>[] = [];
      const durations = [50, 50, 50, 50, 50, 200, 200, 200, 1000, 1000];
      durations.forEach((ms, index) => {
        const id = randomUUID();
        checkoutIds.push(id);
        const status = index >= 8 ? 500 : index === 0 ? 404 : 200;
        traces.push({
          id,
          endpoint: 'GET /checkout',
          duration: ms * MS,
          recordedAt: ago(60_000 + index * 1000),
          statusCode: status,
          bodySize: 10,
          clientIP: '198.51.100.1',
          attributes: { 'user.id': `u${index % 2}` },
          spans:
            index === 8
              ? [
                  {
                    id: randomUUID(),
                    name: 'db.orders.insert',
                    startTime: ago(60_000 + index * 1000),
                    duration: 900 * MS,
                  },
                ]
              : null,
        });
      });
      for (let i = 0; i < 20; i++)
        traces.push({
          id: randomUUID(),
          endpoint: 'GET /health',
          duration: 10 * MS,
          recordedAt: ago(120_000 + i * 1000),
          statusCode: 200,
          bodySize: 2,
          clientIP: '',
        });
      for (let i = 0; i < 4; i++)
        traces.push({
          id: randomUUID(),
          endpoint: 'UNMATCHED',
          duration: 10 * MS,
          recordedAt: ago(130_000 + i * 1000),
          statusCode: 404,
          bodySize: 0,
          clientIP: '',
        });
      // Tasks: "reindex" 4 runs 10, 20, 30, 100 ms; "mail" 2 runs of 5 ms.
      for (const ms of [10, 20, 30, 100])
        traces.push({
          id: randomUUID(),
          endpoint: 'reindex',
          duration: ms * MS,
          recordedAt: ago(90_000),
          statusCode: 0,
          bodySize: 0,
          clientIP: '',
          isTask: true,
        });
      for (let i = 0; i < 2; i++)
        traces.push({
          id: randomUUID(),
          endpoint: 'mail',
          duration: 5 * MS,
          recordedAt: ago(90_000),
          statusCode: 0,
          bodySize: 0,
          clientIP: '',
          isTask: true,
        });

      const stack = 'TypeError: cannot read id\ncheckout()\n    /app/checkout.go:42\n';
      const stackTraces = [
        {
          traceId: checkoutIds[8],
          stackTrace: stack,
          recordedAt: ago(61_000),
          isMessage: false,
          attributes: { 'user.id': 'u1' },
          sessionId,
        },
        {
          traceId: checkoutIds[9],
          stackTrace: stack,
          recordedAt: ago(62_000),
          isMessage: false,
          attributes: { 'user.id': 'u2' },
        },
        { traceId: checkoutIds[9], stackTrace: stack.replace('42', '43'), recordedAt: ago(63_000), isMessage: false },
        { stackTrace: 'cache warmed', recordedAt: ago(64_000), isMessage: true },
      ];
      const metrics = [10, 20, 30].map((value, i) => ({ name: 'mem.used', value, recordedAt: ago(70_000 + i * 1000) }));
      await report({
        traces,
        stackTraces,
        metrics,
        sessions: [
          {
            id: sessionId,
            startedAt: ago(200_000),
            attributes: { url: 'https://shop.example/cart', userAgent: 'Firefox/140' },
          },
        ],
        sessionRecordings: [
          {
            sessionId,
            segmentIndex: 1,
            events: [{ type: 3, n: 'second' }],
            startedAt: ago(150_000),
            endedAt: ago(140_000),
          },
          {
            sessionId,
            segmentIndex: 0,
            events: [{ type: 2, n: 'first' }],
            startedAt: ago(199_000),
            endedAt: ago(160_000),
            logs: [{ level: 'info' }],
          },
        ],
      });
      await report({
        sessions: [
          {
            id: randomUUID(),
            startedAt: ago(100_000),
            attributes: { url: 'https://shop.example/about', userAgent: 'Chrome/130' },
          },
        ],
      });

      // OTLP: an SSE endpoint (streaming) whose child span is an LLM call: one distributed trace.
      const rootHex = hex(8);
      const start = nanosAgo(50_000);
      await otlp('traces', {
        resourceSpans: [
          {
            resource: { attributes: attrs({ 'service.name': 'chat' }) },
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: otelTraceHex,
                    spanId: rootHex,
                    name: 'GET /events',
                    kind: 2,
                    startTimeUnixNano: start,
                    endTimeUnixNano: (BigInt(start) + 60_000n * 1_000_000n).toString(),
                    attributes: attrs({
                      'http.request.method': 'GET',
                      'http.route': '/events',
                      'http.response.status_code': 200,
                      'http.response.header.content-type': 'text/event-stream',
                    }),
                  },
                  {
                    traceId: otelTraceHex,
                    spanId: aiSpanHex,
                    parentSpanId: rootHex,
                    name: 'chat gpt-4o',
                    kind: 3,
                    startTimeUnixNano: start,
                    endTimeUnixNano: (BigInt(start) + 2_000n * 1_000_000n).toString(),
                    attributes: attrs({
                      'gen_ai.operation.name': 'chat',
                      'gen_ai.provider.name': 'openai',
                      'gen_ai.request.model': 'gpt-4o',
                      'gen_ai.usage.input_tokens': 1000,
                      'gen_ai.usage.output_tokens': 100,
                      'gen_ai.input.messages': JSON.stringify([
                        { role: 'user', parts: [{ type: 'text', content: 'Hello?' }] },
                      ]),
                      'gen_ai.output.messages': JSON.stringify([
                        { role: 'assistant', parts: [{ type: 'text', content: 'Hi.' }], finish_reason: 'stop' },
                      ]),
                    }),
                  },
                ],
              },
            ],
          },
        ],
      });
      await otlp('metrics', {
        resourceMetrics: [
          {
            resource: { attributes: attrs({ 'service.name': 'worker' }) },
            scopeMetrics: [
              {
                metrics: [
                  {
                    name: 'queue.depth',
                    gauge: {
                      dataPoints: [
                        { timeUnixNano: nanosAgo(80_000), asDouble: 5, attributes: attrs({ queue: 'a' }) },
                        { timeUnixNano: nanosAgo(81_000), asDouble: 7, attributes: attrs({ queue: 'b' }) },
                      ],
                    },
                  },
                ],
              },
            ],
          },
        ],
      });
      const logTrace = hex(16);
      await otlp('logs', {
        resourceLogs: [
          {
            resource: { attributes: attrs({ 'service.name': 'api' }) },
            scopeLogs: [
              {
                logRecords: [
                  {
                    timeUnixNano: nanosAgo(10_000),
                    severityNumber: 9,
                    severityText: 'INFO',
                    body: { stringValue: 'user signed in' },
                    attributes: attrs({ tenant: 'acme' }),
                  },
                  {
                    timeUnixNano: nanosAgo(20_000),
                    severityNumber: 17,
                    severityText: 'ERROR',
                    body: { stringValue: 'payment failed: card declined' },
                    traceId: logTrace,
                    spanId: hex(8),
                  },
                  {
                    timeUnixNano: nanosAgo(30_000),
                    severityNumber: 13,
                    severityText: 'WARN',
                    body: { stringValue: 'slow payment provider' },
                  },
                ],
              },
            ],
          },
          {
            resource: { attributes: attrs({ 'service.name': 'worker' }) },
            scopeLogs: [
              {
                logRecords: [{ timeUnixNano: nanosAgo(40_000), severityNumber: 9, body: { stringValue: 'job done' } }],
              },
            ],
          },
        ],
      });
      (globalThis as { logTrace?: string }).logTrace = logTrace;
    });

    afterAll(async () => {
      await service?.close();
      await environment?.dispose();
    });

    it('ranks endpoints by Impact with the components computed by hand', async () => {
      const response = await post('/api/endpoints', { apdexThresholdMs: 100 });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ page: 1, pageSize: 50, total: 4, hasMore: false, apdexThresholdMs: 100 });
      const byName = Object.fromEntries(body.items.map((item: { name: string }) => [item.name, item]));
      const checkout = byName['GET /checkout'];
      // apdex (5 + 3/2) / 10 = 0.65; error rate 2/10; client 1/10; P99 1000 ms -> penalty min(1, 900/300) = 1;
      // volume share 10/20 -> volume-weighted 0.2 x 0.5 = 0.1.
      // Impact = 0.3 x 0.35 + 0.25 x 0.2 + 0.15 x 1 + 0.1 x 0.1 + 0.2 x 0.1 = 0.335
      expect(checkout).toMatchObject({
        method: 'GET',
        route: '/checkout',
        requests: 10,
        serverErrors: 2,
        clientErrors: 1,
        streaming: false,
      });
      expect(checkout.apdex).toBeCloseTo(0.65, 9);
      expect(checkout.errorRate).toBeCloseTo(0.2, 9);
      expect(checkout.clientErrorRate).toBeCloseTo(0.1, 9);
      expect(checkout.impactComponents.p99).toBe(1);
      expect(checkout.impactComponents.volumeWeightedErrorRate).toBeCloseTo(0.1, 9);
      expect(checkout.impact).toBeCloseTo(0.335, 6);
      expect(checkout.reason).toMatch(/Apdex 0.65|P99/);
      expect(body.items[0].name).toBe('GET /checkout');
      // UNMATCHED: all 404 but excluded from client-error impact.
      expect(byName.UNMATCHED).toMatchObject({ clientErrors: 4, clientErrorRate: 0, impact: 0 });
      // Streaming: flagged, no latency components (apdex and P99 null), so a 60 s stream is not "slow".
      expect(byName['GET /events']).toMatchObject({
        streaming: true,
        streamingRequests: 1,
        apdex: null,
        p99Ms: null,
        impact: 0,
      });
      expect(byName['GET /health']).toMatchObject({ requests: 20, impact: 0, apdex: 1 });
    });

    it('sorts, pages, searches and filters endpoints', async () => {
      const byRequests = (
        await post('/api/endpoints', {
          orderBy: 'requests',
          sortDirection: 'desc',
          pagination: { page: 1, pageSize: 1 },
        })
      ).json();
      expect(byRequests).toMatchObject({ page: 1, pageSize: 1, total: 4, hasMore: true });
      expect(byRequests.items.map((i: { name: string }) => i.name)).toEqual(['GET /health']);
      const page2 = (
        await post('/api/endpoints', { orderBy: 'requests', pagination: { page: 2, pageSize: 1 } })
      ).json();
      expect(page2.items[0].name).toBe('GET /checkout');
      const searched = (await post('/api/endpoints', { search: 'check' })).json();
      expect(searched.items.map((i: { name: string }) => i.name)).toEqual(['GET /checkout']);
      const filtered = (
        await post('/api/endpoints', { filters: [{ field: 'statusCode', op: 'gte', value: 500 }] })
      ).json();
      expect(filtered.items).toHaveLength(1);
      expect(filtered.items[0]).toMatchObject({ name: 'GET /checkout', requests: 2 });
      const byAttribute = (
        await post('/api/endpoints', { filters: [{ field: 'attributes.user.id', op: 'eq', value: 'u1' }] })
      ).json();
      expect(byAttribute.items[0]).toMatchObject({ name: 'GET /checkout', requests: 5 });
    });

    it('rolls endpoints up by route', async () => {
      const body = (await post('/api/endpoints/grouped', {})).json();
      const routes = body.items.map((i: { route: string }) => i.route).sort();
      expect(routes).toContain('/checkout');
      expect(body.items.find((i: { route: string }) => i.route === '/checkout')).toMatchObject({
        requests: 10,
        method: 'GET',
      });
    });

    it('details an endpoint with slowest and failing traces, and the waterfall of one', async () => {
      const response = await post('/api/endpoints/detail', { name: 'GET /checkout', limit: 3 });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ name: 'GET /checkout', count: 10, serverErrors: 2, clientErrors: 1 });
      expect(body.slowest.map((t: { durationMs: number }) => t.durationMs)).toEqual([1000, 1000, 200]);
      expect(body.failing).toHaveLength(3);
      expect(body.series.count.reduce((a: number, b: number) => a + b, 0)).toBe(10);
      expect(body.series.p50Ms).toHaveLength(body.series.t.length);
      expect(body.series.p99Ms).toHaveLength(body.series.t.length);
      // 7 x 200, 2 x 500, 1 x 404: every call counted once, the most frequent code first.
      expect(body.statusCodes).toEqual([
        { statusCode: 200, count: 7 },
        { statusCode: 500, count: 2 },
        { statusCode: 404, count: 1 },
      ]);
      // The newest calls first: the crafted ones were recorded 60 s, 61 s, 62 s ... ago.
      expect(body.recent.map((t: { id: string }) => t.id)).toEqual(checkoutIds.slice(0, 3));
      const waterfall = await get(`/api/traces/${checkoutIds[8]}`);
      expect(waterfall.statusCode, waterfall.body).toBe(200);
      // The details grid of the trace page: server, version, client and attributes of the entity.
      expect(waterfall.json()).toMatchObject({
        kind: 'endpoint',
        name: 'GET /checkout',
        statusCode: 500,
        serverName: 'web-1',
        appVersion: '1.0.0',
        clientIp: '198.51.100.1',
        attributes: { 'user.id': 'u0' },
        spans: [{ name: 'db.orders.insert', durationMs: 900 }],
      });
      expect((await get(`/api/traces/${randomUUID()}`)).statusCode).toBe(404);
    });

    it("pages through every call of an endpoint and every run of a task (before: the detail's 100 at most)", async () => {
      type Page = { items: Array<{ id: string; durationMs: number; statusCode: number }>; hasMore: boolean };
      const pageOf = async (url: string, body: Record<string, unknown>) => {
        const response = await post(url, body);
        expect(response.statusCode, response.body).toBe(200);
        return response.json() as Page;
      };
      const all: Page['items'] = [];
      for (let page = 1; ; page++) {
        const answer = await pageOf('/api/endpoints/calls', {
          name: 'GET /checkout',
          pagination: { page, pageSize: 3 },
        });
        all.push(...answer.items);
        if (!answer.hasMore) break;
        expect(answer.items).toHaveLength(3);
      }
      // Slowest first across pages, each of the 10 calls once.
      expect(all).toHaveLength(10);
      expect(new Set(all.map((call) => call.id)).size).toBe(10);
      expect(all.map((call) => call.durationMs)).toEqual([1000, 1000, 200, 200, 200, 50, 50, 50, 50, 50]);
      const newest = await pageOf('/api/endpoints/calls', {
        name: 'GET /checkout',
        orderBy: 'recordedAt',
        pagination: { page: 2, pageSize: 3 },
      });
      expect(newest.items.map((call) => call.id)).toEqual(checkoutIds.slice(3, 6));
      const failing = await pageOf('/api/endpoints/calls', { name: 'GET /checkout', failing: true });
      expect(failing.items.map((call) => call.statusCode).sort()).toEqual([404, 500, 500]);
      expect(failing.hasMore).toBe(false);
      const oldestFirst = await pageOf('/api/endpoints/calls', {
        name: 'GET /checkout',
        orderBy: 'recordedAt',
        sortDirection: 'asc',
      });
      expect(oldestFirst.items.map((call) => call.id)).toEqual(checkoutIds.slice(0, 10).reverse());
      const runs = await pageOf('/api/tasks/calls', { name: 'reindex' });
      expect(runs.items.map((run) => run.durationMs)).toEqual([100, 30, 20, 10]);
      expect((await post('/api/endpoints/calls', { name: 'GET /checkout', orderBy: 'status' })).statusCode).toBe(400);
      expect((await post('/api/endpoints/calls', {})).statusCode).toBe(400);
    });

    it('stacks total time by endpoint: the top N by time, the rest as other, streams left out', async () => {
      const response = await post('/api/endpoints/series', { top: 1 });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
      expect(body.series.map((s: { name: string }) => s.name)).toEqual(['GET /checkout']);
      expect(body.series[0].totalMs).toHaveLength(body.bucketStarts.length);
      // GET /checkout: 5 x 50 + 3 x 200 + 2 x 1000 = 2850 ms; other: GET /health 20 x 10 + UNMATCHED 4 x 10 (the 60 s stream is not counted).
      expect(sum(body.series[0].totalMs)).toBeCloseTo(2850, 6);
      expect(sum(body.other)).toBeCloseTo(240, 6);
      const filtered = (await post('/api/endpoints/series', { search: 'health' })).json();
      expect(filtered.series.map((s: { name: string }) => s.name)).toEqual(['GET /health']);
      expect(sum(filtered.other)).toBe(0);
      const tasks = (await post('/api/tasks/series', {})).json();
      expect(tasks.series.map((s: { name: string; totalMs: number[] }) => [s.name, sum(s.totalMs)])).toEqual([
        ['reindex', 160],
        ['mail', 10],
      ]);
      expect(
        (await post('/api/endpoints/series', { filters: [{ field: 'nope', op: 'eq', value: 1 }] })).statusCode,
      ).toBe(400);
    });

    it('ranks tasks by count x (P95 - P50)', async () => {
      const body = (await post('/api/tasks', {})).json();
      expect(body.items.map((i: { name: string }) => i.name)).toEqual(['reindex', 'mail']);
      const reindex = body.items[0];
      // Exact quantiles of 10, 20, 30, 100 (linear interpolation): P50 = 25, P95 = 89.5 -> 4 x 64.5 = 258
      expect(reindex.count).toBe(4);
      expect(reindex.rank).toBeGreaterThan(0);
      expect(reindex.rank).toBeCloseTo(4 * (reindex.p95Ms - reindex.p50Ms), 6);
      expect(body.items[1]).toMatchObject({ name: 'mail', count: 2, rank: 0 });
      const detail = (await post('/api/tasks/detail', { name: 'reindex' })).json();
      expect(detail).toMatchObject({ name: 'reindex', count: 4 });
    });

    it('groups exceptions by hash with users, sessions, sparkline and linked endpoint', async () => {
      const response = await post('/api/exception-stack-traces', {});
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.total).toBe(3);
      const top = body.items[0];
      expect(top).toMatchObject({
        title: 'TypeError: cannot read id',
        isMessage: false,
        count: 2,
        usersAffected: 2,
        sessionsAffected: 1,
        linked: { kind: 'endpoint', name: 'GET /checkout' },
      });
      expect(top.sparkline.reduce((a: number, b: number) => a + b, 0)).toBe(2);
      expect(top.sparkline).toHaveLength(body.bucketStarts.length);
      exceptionHash = top.hash;
      const messages = (
        await post('/api/exception-stack-traces', { filters: [{ field: 'isMessage', op: 'eq', value: true }] })
      ).json();
      expect(messages.items.map((i: { title: string }) => i.title)).toEqual(['cache warmed']);
      const searched = (await post('/api/exception-stack-traces', { search: 'warmed' })).json();
      expect(searched.total).toBe(1);
      // A trace page lists the exceptions of its entity: checkoutIds[9] carries two groups.
      const ofTrace = (
        await post('/api/exception-stack-traces', { filters: [{ field: 'traceId', op: 'eq', value: checkoutIds[9] }] })
      ).json();
      expect(ofTrace.total).toBe(2);
      expect(ofTrace.items.map((i: { count: number }) => i.count)).toEqual([1, 1]);
    });

    it('lists the occurrences of one exception group', async () => {
      const response = await post(`/api/exception-stack-traces/${exceptionHash}`, {
        pagination: { page: 1, pageSize: 10 },
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.total).toBe(2);
      const withSession = body.items.find((i: { sessionId: string | null }) => i.sessionId === sessionId);
      expect(withSession).toMatchObject({
        stackTrace: expect.stringContaining('TypeError'),
        hasRecording: true,
        linked: { kind: 'endpoint', name: 'GET /checkout' },
        attributes: { 'user.id': 'u1' },
      });
      expect(checkoutIds).toContain(withSession.traceId);
    });

    it('ranks AI traces by cost with totals per model and day, and returns the stored conversation', async () => {
      const response = await post('/api/ai-traces', {});
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.total).toBe(1);
      expect(body.items[0]).toMatchObject({
        model: 'gpt-4o',
        provider: 'openai',
        inputTokens: 1000,
        outputTokens: 100,
      });
      expect(body.perModel).toEqual([expect.objectContaining({ model: 'gpt-4o', count: 1, inputTokens: 1000 })]);
      expect(body.perDay).toHaveLength(1);
      const detail = await get(`/api/ai-traces/${body.items[0].id}`);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(JSON.stringify(detail.json().conversation)).toContain('Hello?');
    });

    it('assembles a distributed trace across entities, for readers of the project only', async () => {
      const id = uuidOfHex(otelTraceHex);
      const response = await get(`/api/distributed-traces/${id}`, owner.token, null);
      expect(response.statusCode, response.body).toBe(200);
      const kinds = response
        .json()
        .entities.map((e: { kind: string }) => e.kind)
        .sort();
      expect(kinds).toEqual(['ai', 'endpoint']);
      expect((await get(`/api/distributed-traces/${id}`, stranger.token, null)).statusCode).toBe(404);
      expect((await get(`/api/distributed-traces/${id}`, 'nope', null)).statusCode).toBe(401);
    });

    it('discovers and queries metrics', async () => {
      const discover = (await get('/api/metrics/discover')).json();
      const names = discover.metrics.map((m: { name: string }) => m.name);
      expect(names).toEqual(expect.arrayContaining(['mem.used', 'queue.depth']));
      expect(discover.metrics.find((m: { name: string }) => m.name === 'queue.depth').dimensions).toEqual(
        expect.arrayContaining([{ key: 'queue', values: ['a', 'b'] }]),
      );
      const sum = (values: Array<number | null>) => values.reduce<number>((a, b) => a + (b ?? 0), 0);
      const avg = (
        await post('/api/metrics/query', { name: 'mem.used', aggregation: 'max', bucketSeconds: 86400 })
      ).json();
      expect(avg.series).toHaveLength(1);
      expect(Math.max(...avg.series[0].values.filter((v: number | null) => v !== null))).toBe(30);
      const count = (await post('/api/metrics/query', { name: 'mem.used', aggregation: 'count' })).json();
      expect(sum(count.series[0].values)).toBe(3);
      const grouped = (
        await post('/api/metrics/query', { name: 'queue.depth', aggregation: 'sum', groupBy: ['queue'] })
      ).json();
      const totals = Object.fromEntries(
        grouped.series.map((s: { group: { queue: string }; values: Array<number | null> }) => [
          s.group.queue,
          sum(s.values),
        ]),
      );
      expect(totals).toEqual({ a: 5, b: 7 });
      const filtered = (
        await post('/api/metrics/query', {
          name: 'queue.depth',
          aggregation: 'sum',
          filters: [{ field: 'dimensions.queue', op: 'eq', value: 'b' }],
        })
      ).json();
      expect(sum(filtered.series[0].values)).toBe(7);
    });

    it('keeps the 50 series with the most points when a grouped metric has more', async () => {
      // 52 hosts: host-00 and host-01 have one point each, every other host two.
      const dataPoints = Array.from({ length: 52 }, (_, i) => {
        const host = `host-${String(i).padStart(2, '0')}`;
        const points = [{ timeUnixNano: nanosAgo(90_000 + i), asDouble: i, attributes: attrs({ host }) }];
        if (i >= 2) points.push({ timeUnixNano: nanosAgo(95_000 + i), asDouble: i, attributes: attrs({ host }) });
        return points;
      }).flat();
      await otlp('metrics', {
        resourceMetrics: [
          {
            resource: { attributes: attrs({ 'service.name': 'fleet' }) },
            scopeMetrics: [{ metrics: [{ name: 'fleet.load', gauge: { dataPoints } }] }],
          },
        ],
      });
      const grouped = (
        await post('/api/metrics/query', { name: 'fleet.load', aggregation: 'count', groupBy: ['host'] })
      ).json();
      const hosts = grouped.series.map((series: { group: { host: string } }) => series.group.host).sort();
      expect(hosts).toHaveLength(50);
      expect(hosts).not.toContain('host-00');
      expect(hosts).not.toContain('host-01');
      const sum = (values: Array<number | null>) => values.reduce<number>((a, b) => a + (b ?? 0), 0);
      for (const series of grouped.series) expect(sum(series.values)).toBe(2);
    });

    it('answers homepage stats, the dashboard series and overview', async () => {
      const stats = (await post('/api/stats', {})).json();
      expect(stats).toMatchObject({
        requests: 35,
        serverErrors: 2,
        tasks: 6,
        exceptions: 4,
        issues: 3,
        aiCalls: 1,
        sessions: 2,
      });
      const dashboard = (await get('/api/dashboard')).json();
      expect(dashboard.requests.reduce((a: number, b: number) => a + b, 0)).toBe(35);
      expect(dashboard.requests).toHaveLength(dashboard.bucketStarts.length);
      const overview = await get('/api/dashboard/overview');
      expect(overview.statusCode, overview.body).toBe(200);
      expect(overview.json().endpoints[0]).toMatchObject({ name: 'GET /checkout' });
      // Its figures come from the same read as its endpoint rows (GROUPING SETS), and are /api/stats's.
      const { fromDate: _from, toDate: _to, ...figures } = stats;
      expect(overview.json().stats).toMatchObject(figures);
    });

    it("counts a logs-only and a metrics-only project's telemetry in the homepage figures", async () => {
      // Home says "nothing was received" from these figures: logs and metric points must count.
      const sendOnly = async (signal: 'logs' | 'metrics', body: unknown) => {
        const member = await registerUser(service.app);
        await otlp(signal, body, member.project.token);
        const stats = (await post('/api/stats', {}, member.token, member.project.id)).json();
        const overview = (await get('/api/dashboard/overview', member.token, member.project.id)).json();
        expect(overview.stats).toMatchObject({ logs: stats.logs, metricPoints: stats.metricPoints });
        return stats;
      };
      const logsOnly = await sendOnly('logs', {
        resourceLogs: [
          {
            resource: { attributes: attrs({ 'service.name': 'worker' }) },
            scopeLogs: [
              {
                logRecords: [1, 2].map((i) => ({
                  timeUnixNano: nanosAgo(5_000 * i),
                  severityNumber: 9,
                  body: { stringValue: `job ${i} done` },
                })),
              },
            ],
          },
        ],
      });
      expect(logsOnly).toMatchObject({ requests: 0, tasks: 0, exceptions: 0, sessions: 0, logs: 2, metricPoints: 0 });
      const metricsOnly = await sendOnly('metrics', {
        resourceMetrics: [
          {
            resource: { attributes: attrs({ 'service.name': 'worker' }) },
            scopeMetrics: [
              {
                metrics: [
                  {
                    name: 'queue.depth',
                    gauge: { dataPoints: [1, 2, 3].map((i) => ({ timeUnixNano: nanosAgo(5_000 * i), asDouble: i })) },
                  },
                ],
              },
            ],
          },
        ],
      });
      expect(metricsOnly).toMatchObject({ requests: 0, aiCalls: 0, logs: 0, metricPoints: 3 });
      // The stranger's project, asked with its own token, holds none of it.
      expect((await post('/api/stats', {}, stranger.token, stranger.project.id)).json()).toMatchObject({
        logs: 0,
        metricPoints: 0,
      });
    });

    it('saves, lists, updates and deletes dashboards', async () => {
      const created = await post('/api/dashboards', {
        name: 'Latency',
        definition: { panels: [{ metric: 'mem.used' }] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id;
      expect((await get('/api/dashboards')).json().dashboards.map((d: { name: string }) => d.name)).toEqual([
        'Latency',
      ]);
      const updated = await service.app.inject({
        method: 'PUT',
        url: `/api/dashboards/${id}?projectId=${owner.project.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { name: 'P95' },
      });
      expect(updated.json()).toMatchObject({ name: 'P95', definition: { panels: [{ metric: 'mem.used' }] } });
      expect((await get(`/api/dashboards/${id}`)).json().name).toBe('P95');
      const deleted = await service.app.inject({
        method: 'DELETE',
        url: `/api/dashboards/${id}?projectId=${owner.project.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(deleted.statusCode).toBe(200);
      expect((await get(`/api/dashboards/${id}`)).statusCode).toBe(404);
    });

    it('searches logs with the spec body', async () => {
      const all = (await post('/api/logs', { pagination: { page: 1, pageSize: 10 } })).json();
      expect(all.items.map((l: { body: string }) => l.body)).toEqual([
        'user signed in',
        'payment failed: card declined',
        'slow payment provider',
        'job done',
      ]);
      const asc = (
        await post('/api/logs', { orderBy: 'timestamp', sortDirection: 'asc', pagination: { page: 1, pageSize: 2 } })
      ).json();
      expect(asc).toMatchObject({ hasMore: true, items: [{ body: 'job done' }, { body: 'slow payment provider' }] });
      const severe = (
        await post('/api/logs', { minSeverity: 13, serviceName: 'api', pagination: { page: 1, pageSize: 10 } })
      ).json();
      expect(severe.items.map((l: { severityText: string }) => l.severityText)).toEqual(['ERROR', 'WARN']);
      const text = (await post('/api/logs', { search: 'PAYMENT', pagination: { page: 1, pageSize: 10 } })).json();
      expect(text.items).toHaveLength(2);
      const byTrace = (
        await post('/api/logs', {
          traceId: (globalThis as { logTrace?: string }).logTrace,
          pagination: { page: 1, pageSize: 10 },
        })
      ).json();
      expect(byTrace.items.map((l: { body: string }) => l.body)).toEqual(['payment failed: card declined']);
      const byAttribute = (
        await post('/api/logs', {
          filters: [{ field: 'attributes.tenant', op: 'eq', value: 'acme' }],
          pagination: { page: 1, pageSize: 10 },
        })
      ).json();
      expect(byAttribute.items.map((l: { body: string }) => l.body)).toEqual(['user signed in']);
    });

    it('lists a re-sent log once, on every page, whether the page is read without FINAL or with it', async () => {
      // Two days ago, outside the default range the other log tests read.
      const window = { fromDate: ago(3 * 86400_000), toDate: ago(86400_000) };
      const base = Date.now() - 2 * 86400_000;
      const batch = (service: string, count: number) => ({
        resourceLogs: [
          {
            resource: { attributes: attrs({ 'service.name': service }) },
            scopeLogs: [
              {
                logRecords: Array.from({ length: count }, (_, i) => ({
                  timeUnixNano: (BigInt(base + i * 10) * 1_000_000n).toString(),
                  severityNumber: 9,
                  body: { stringValue: `${service} ${i}` },
                })),
              },
            ],
          },
        ],
      });
      // Each send is its own request, so the copies land in separate parts until a merge.
      for (let copy = 0; copy < 3; copy++) await otlp('logs', batch('replayer', 5));
      const page = async (n: number) =>
        (
          await post('/api/logs', {
            ...window,
            serviceName: 'replayer',
            orderBy: 'timestamp',
            sortDirection: 'asc',
            pagination: { page: n, pageSize: 2 },
          })
        ).json();
      const pages = [await page(1), await page(2), await page(3)];
      expect(pages.map((p) => [p.items.map((l: { body: string }) => l.body), p.hasMore])).toEqual([
        [['replayer 0', 'replayer 1'], true],
        [['replayer 2', 'replayer 3'], true],
        [['replayer 4'], false],
      ]);

      // Past OVERFETCH_MAX_ROWS the page is read with FINAL: 10,001 logs sent twice, page 21 of 500.
      for (let copy = 0; copy < 2; copy++) await otlp('logs', batch('deep', OVERFETCH_MAX_ROWS + 1));
      const deep = (
        await post('/api/logs', {
          ...window,
          serviceName: 'deep',
          orderBy: 'timestamp',
          sortDirection: 'asc',
          pagination: { page: 21, pageSize: 500 },
        })
      ).json();
      expect(deep).toMatchObject({ hasMore: false, items: [{ body: `deep ${OVERFETCH_MAX_ROWS}` }] });
      const shallow = (
        await post('/api/logs', {
          ...window,
          serviceName: 'deep',
          orderBy: 'timestamp',
          sortDirection: 'asc',
          pagination: { page: 20, pageSize: 500 },
        })
      ).json();
      expect(shallow.items).toHaveLength(500);
      expect(shallow.items[499].body).toBe(`deep ${OVERFETCH_MAX_ROWS - 1}`);
      expect(shallow.hasMore).toBe(true);
    });

    it('lists sessions with filters, details one, and streams its recording by segmentIndex', async () => {
      const all = (await post('/api/sessions', {})).json();
      expect(all.items).toHaveLength(2);
      const withErrors = (await post('/api/sessions', { hasErrors: true })).json();
      expect(withErrors.items.map((s: { id: string }) => s.id)).toEqual([sessionId]);
      expect(withErrors.items[0]).toMatchObject({
        url: 'https://shop.example/cart',
        userAgent: 'Firefox/140',
        errorCount: 1,
        recordingSegments: 2,
      });
      const chrome = (
        await post('/api/sessions', { filters: [{ field: 'userAgent', op: 'contains', value: 'chrome' }] })
      ).json();
      expect(chrome.items.map((s: { url: string }) => s.url)).toEqual(['https://shop.example/about']);
      const detail = (await get(`/api/sessions/${sessionId}`)).json();
      expect(detail.exceptions).toHaveLength(1);
      expect(detail.segments.map((s: { segmentIndex: number }) => s.segmentIndex)).toEqual([0, 1]);
      const recording = await get(`/api/sessions/${sessionId}/recording`);
      expect(recording.statusCode, recording.body).toBe(200);
      const parsed = JSON.parse(recording.body);
      expect(
        parsed.segments.map((s: { segmentIndex: number; events: Array<{ n: string }> }) => [
          s.segmentIndex,
          s.events[0]?.n,
        ]),
      ).toEqual([
        [0, 'first'],
        [1, 'second'],
      ]);
    });

    it('answers a recording whose stored segment is damaged as whole JSON, that segment marked (before: cut mid-way)', async () => {
      const prefix = `recordings/${owner.project.id}/`;
      const { keys } = await service.services.objects.list(prefix);
      const key = keys.find((each) => each.includes(sessionId) && each.endsWith('/0.json.gz'))!;
      const original = (await service.services.objects.get(key))!;
      // More than a read's worth of bytes that are not gzip.
      await service.services.objects.put(key, randomBytes(256 * 1024));
      try {
        const damaged = await get(`/api/sessions/${sessionId}/recording`);
        expect(damaged.statusCode).toBe(200);
        const segments = JSON.parse(damaged.body).segments as Array<{
          segmentIndex: number;
          unreadable?: boolean;
          events: Array<{ n: string }>;
        }>;
        expect(segments.map((s) => [s.segmentIndex, s.unreadable ?? false, s.events[0]?.n])).toEqual([
          [0, true, undefined],
          [1, false, 'second'],
        ]);
        const fileName = key.slice(key.lastIndexOf('/') + 1);
        const openOnIt = () =>
          fs
            .readdirSync('/proc/self/fd')
            .map((fd) => {
              try {
                return fs.readlinkSync(`/proc/self/fd/${fd}`);
              } catch {
                return '';
              }
            })
            .filter((target) => target.endsWith(`/${fileName}`));
        // The damaged segment's file is closed once answered, not left to garbage collection.
        for (let turn = 0; turn < 50 && openOnIt().length > 0; turn++) await new Promise((r) => setTimeout(r, 20));
        expect(openOnIt()).toEqual([]);
      } finally {
        await service.services.objects.put(key, original);
      }
    });

    describe('limits', () => {
      it('defaults the range to 24 h and refuses more than 31 days or a reversed range', async () => {
        const old = (
          await post('/api/endpoints', { fromDate: ago(40 * 86400_000), toDate: ago(39 * 86400_000) })
        ).json();
        expect(old.items).toEqual([]);
        const long = await post('/api/endpoints', { fromDate: ago(32 * 86400_000) });
        expect(long.statusCode).toBe(422);
        expect(long.json().error).toMatch(/31 days/);
        expect((await post('/api/endpoints', { fromDate: ago(1000), toDate: ago(2000) })).statusCode).toBe(422);
        expect((await post('/api/endpoints', { fromDate: 'yesterday' })).statusCode).toBe(400);
        expect((await get(`/api/dashboard?fromDate=${encodeURIComponent(ago(40 * 86400_000))}`)).statusCode).toBe(422);
      });

      it('refuses pagination outside page >= 1 and pageSize 1-500', async () => {
        for (const pagination of [
          { page: 0, pageSize: 10 },
          { page: 1, pageSize: 0 },
          { page: 1, pageSize: 501 },
          { page: 1.5, pageSize: 10 },
        ]) {
          expect((await post('/api/logs', { pagination })).statusCode).toBe(400);
          expect((await post('/api/exception-stack-traces', { pagination })).statusCode).toBe(400);
        }
        expect((await post('/api/logs', {})).statusCode).toBe(400);
        expect((await post('/api/logs', { pagination: { page: 1, pageSize: 500 } })).statusCode).toBe(200);
      });

      it('refuses a free-text log search without another selector over more than 24 h (422)', async () => {
        const pagination = { page: 1, pageSize: 10 };
        const wide = await post('/api/logs', { search: 'payment', fromDate: ago(48 * 3600_000), pagination });
        expect(wide.statusCode).toBe(422);
        expect(wide.json().error).toMatch(/24 hours/);
        expect(
          (await post('/api/logs', { search: 'payment', fromDate: ago(23 * 3600_000), pagination })).statusCode,
        ).toBe(200);
        expect(
          (await post('/api/logs', { search: 'payment', serviceName: 'api', fromDate: ago(48 * 3600_000), pagination }))
            .statusCode,
        ).toBe(200);
        expect(
          (await post('/api/logs', { search: 'payment', minSeverity: 9, fromDate: ago(48 * 3600_000), pagination }))
            .statusCode,
        ).toBe(200);
      });

      it('refuses unknown filter fields, sort keys and operators', async () => {
        expect(
          (await post('/api/endpoints', { filters: [{ field: 'project_id', op: 'eq', value: 'x' }] })).statusCode,
        ).toBe(400);
        expect((await post('/api/endpoints', { orderBy: 'project_id' })).statusCode).toBe(400);
        expect(
          (await post('/api/endpoints', { filters: [{ field: 'name', op: 'like', value: 'x' }] })).statusCode,
        ).toBe(400);
        expect(
          (await post('/api/endpoints', { filters: [{ field: 'statusCode', op: 'gt', value: 'abc' }] })).statusCode,
        ).toBe(400);
      });

      it('answers 422 "narrow the time range" when a query exceeds a resource limit', async () => {
        const previous = setQueryLimits({ maxRowsToRead: 5 });
        try {
          const response = await post('/api/endpoints', {});
          expect(response.statusCode, response.body).toBe(422);
          expect(response.json().error).toMatch(/narrow the time range/);
        } finally {
          setQueryLimits(previous);
        }
        expect((await post('/api/endpoints', {})).statusCode).toBe(200);
      });
    });

    describe('project scope', () => {
      const routes: Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown }> = [
        { method: 'POST', url: '/api/exception-stack-traces', body: {} },
        { method: 'POST', url: '/api/exception-stack-traces/0123456789abcdef', body: {} },
        { method: 'POST', url: '/api/endpoints', body: {} },
        { method: 'POST', url: '/api/endpoints/grouped', body: {} },
        { method: 'POST', url: '/api/endpoints/detail', body: { name: 'GET /checkout' } },
        { method: 'POST', url: '/api/endpoints/calls', body: { name: 'GET /checkout' } },
        { method: 'POST', url: '/api/tasks/calls', body: { name: 'reindex' } },
        { method: 'POST', url: '/api/endpoints/series', body: {} },
        { method: 'POST', url: '/api/tasks', body: {} },
        { method: 'POST', url: '/api/tasks/series', body: {} },
        { method: 'POST', url: '/api/tasks/detail', body: { name: 'reindex' } },
        { method: 'POST', url: '/api/ai-traces', body: {} },
        { method: 'GET', url: `/api/ai-traces/${randomUUID()}` },
        { method: 'GET', url: `/api/traces/${randomUUID()}` },
        { method: 'GET', url: '/api/metrics/discover' },
        { method: 'POST', url: '/api/metrics/query', body: { name: 'mem.used' } },
        { method: 'POST', url: '/api/stats', body: {} },
        { method: 'GET', url: '/api/dashboard' },
        { method: 'GET', url: '/api/dashboard/overview' },
        { method: 'GET', url: '/api/dashboards' },
        { method: 'POST', url: '/api/dashboards', body: { name: 'x' } },
        { method: 'GET', url: `/api/dashboards/${randomUUID()}` },
        { method: 'PUT', url: `/api/dashboards/${randomUUID()}`, body: { name: 'x' } },
        { method: 'DELETE', url: `/api/dashboards/${randomUUID()}` },
        { method: 'POST', url: '/api/logs', body: { pagination: { page: 1, pageSize: 10 } } },
        { method: 'POST', url: '/api/sessions', body: {} },
        { method: 'GET', url: `/api/sessions/${randomUUID()}` },
        { method: 'GET', url: `/api/sessions/${randomUUID()}/recording` },
      ];

      it('refuses a member of another organization (403), a stranger (401) and a missing projectId (400) on every route', async () => {
        for (const route of routes) {
          const call = (token: string | null, projectId: string | null) =>
            service.app.inject({
              method: route.method,
              url: projectId ? `${route.url}?projectId=${projectId}` : route.url,
              headers: token ? { authorization: `Bearer ${token}` } : {},
              ...(route.body === undefined ? {} : { payload: route.body as object }),
            });
          const other = await call(stranger.token, owner.project.id);
          expect(other.statusCode, `${route.method} ${route.url}`).toBe(403);
          expect(other.json()).toEqual({ error: 'Access denied' });
          expect((await call(null, owner.project.id)).statusCode, `${route.method} ${route.url}`).toBe(401);
          expect((await call(owner.token, null)).statusCode, `${route.method} ${route.url}`).toBe(400);
        }
      });

      it('reads nothing of another project through its own scope', async () => {
        const own = (await post('/api/endpoints', {}, stranger.token, stranger.project.id)).json();
        expect(own.items).toEqual([]);
        const time = (await post('/api/endpoints/series', {}, stranger.token, stranger.project.id)).json();
        expect(time.series).toEqual([]);
        expect(time.other.every((value: number) => value === 0)).toBe(true);
        const logs = (
          await post('/api/logs', { pagination: { page: 1, pageSize: 10 } }, stranger.token, stranger.project.id)
        ).json();
        expect(logs.items).toEqual([]);
        expect((await get(`/api/traces/${checkoutIds[8]}`, stranger.token, stranger.project.id)).statusCode).toBe(404);
        const calls = (
          await post('/api/endpoints/calls', { name: 'GET /checkout' }, stranger.token, stranger.project.id)
        ).json();
        expect(calls.items).toEqual([]);
      });
    });
  });
}
