/**
 * `npm run demo -- --once` against a real service listening on a port: it registers the demo
 * account, creates the "Demo" project, sends one batch through the real report and OTLP routes,
 * and the read API then shows endpoints, tasks, grouped exceptions, logs tied to traces, metrics
 * and AI calls. A second run signs in and reuses the project.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../scripts/demo.js';
import { startTestService, type TestService } from '../support/service.js';

const run = promisify(execFile);

describe('npm run demo', () => {
  let service: TestService;
  let base: string;

  beforeAll(async () => {
    service = await startTestService();
    base = await service.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await service?.close();
  });

  const demo = async () =>
    (
      await run(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--url', base, '--once', '--seed', '15'], {
        timeout: 60_000,
      })
    ).stdout;

  it('fills a Demo project through the real ingest routes, and the read API shows it', async () => {
    const first = await demo();
    expect(first).toContain(`registered ${DEMO_EMAIL}`);
    expect(first).toMatch(/created project Demo \(/);
    expect(first).toMatch(
      /sent \d+ calls \(\d+ failed\), \d+ task runs, \d+ exceptions, \d+ logs, \d+ metrics, \d+ AI calls, 1 browser sessions/,
    );
    await service.services.writer.drain();

    const login = await service.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });
    const headers = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
    const projects = (await service.app.inject({ method: 'GET', url: '/api/projects', headers })).json() as {
      projects: Array<{ id: string; name: string }>;
    };
    const project = projects.projects.find((p) => p.name === 'Demo')!;
    expect(project).toBeDefined();
    const range = {
      fromDate: new Date(Date.now() - 3_600_000).toISOString(),
      toDate: new Date(Date.now() + 60_000).toISOString(),
    };
    const read = async (url: string, body: Record<string, unknown> = {}) => {
      const answer = await service.app.inject({
        method: 'POST',
        url: `${url}?projectId=${project.id}`,
        headers,
        payload: { ...range, pagination: { page: 1, pageSize: 200 }, ...body },
      });
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
      return answer.json() as { items: Array<Record<string, unknown>> };
    };
    const names = (items: Array<Record<string, unknown>>) => items.map((item) => item.name);
    const endpoints = (await read('/api/endpoints')).items;
    expect(names(endpoints)).toEqual(expect.arrayContaining(['GET /api/products', 'GET /api/products/:id']));
    // A spread of latencies, and failures somewhere.
    expect(endpoints.some((e) => (e.p95Ms as number) > (e.p50Ms as number))).toBe(true);
    expect(endpoints.some((e) => (e.serverErrors as number) > 0)).toBe(true);
    expect(names((await read('/api/tasks')).items)).toContain('send-order-confirmation');

    // Exceptions group, and each links to the call it happened in, whose logs carry its trace id.
    const issues = (await read('/api/exception-stack-traces')).items;
    expect(issues.length).toBeGreaterThanOrEqual(1);
    const linked = issues.map((issue) => issue.linked as { id: string } | null).find((link) => link)!;
    expect(linked).toBeDefined();
    const logs = (await read('/api/logs')).items;
    expect(logs.length).toBeGreaterThanOrEqual(20);
    expect(
      logs.filter((entry) => entry.traceId === linked.id.replaceAll('-', '')).map((entry) => entry.severityText),
    ).toEqual(expect.arrayContaining(['INFO', 'ERROR']));

    const discovered = await service.app.inject({
      method: 'GET',
      url: `/api/metrics/discover?projectId=${project.id}`,
      headers,
    });
    const metricNames = (discovered.json() as { metrics: Array<{ name: string }> }).metrics.map((m) => m.name);
    expect(metricNames).toEqual(
      expect.arrayContaining([
        'http.server.active_requests',
        'http.server.requests',
        'db.client.connections.usage',
        'payment.amount.avg',
        'checkout.duration.p95',
        'queue.depth',
        'payments.pending',
      ]),
    );
    expect(metricNames.some((name) => name.startsWith('http.server.request.duration'))).toBe(true);

    const ai = (await read('/api/ai-traces')).items;
    expect(ai.length).toBeGreaterThanOrEqual(1);
    expect(ai[0]).toMatchObject({ operation: 'chat', finishReason: 'stop' });
    expect(ai[0]!.totalCost as number).toBeGreaterThan(0);

    // The shopper's session, its recording segment, and the exception raised during it.
    const sessions = (await read('/api/sessions')).items;
    expect(sessions).toHaveLength(1);
    const sessionId = sessions[0]!.id as string;
    const recording = await service.app.inject({
      method: 'GET',
      url: `/api/sessions/${sessionId}/recording?projectId=${project.id}`,
      headers,
    });
    expect(recording.statusCode, recording.body).toBe(200);
    const segments = (recording.json() as { segments: Array<{ events: Array<{ type: number }>; actions: unknown[] }> })
      .segments;
    expect(segments[0]!.events.map((e) => e.type).slice(0, 2)).toEqual([4, 2]);
    expect(segments[0]!.actions).toHaveLength(3);
    expect(issues.some((issue) => issue.sessionsAffected === 1)).toBe(true);

    const second = await demo();
    expect(second).toContain(`signed in as ${DEMO_EMAIL}`);
    expect(second).toContain(`using project Demo (${project.id})`);
  });
}, 120_000);
