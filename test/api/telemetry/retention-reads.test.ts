/**
 * Reads start no earlier than the organization's plan keeps, on chDB: rows older than the plan's
 * retention are deleted by the retention job about hourly, and until it runs again no list,
 * detail or aggregate read answers them. A range wholly before the retention is answered empty,
 * as a range older than the tables' TTLs is (200, not 422). The retention job ran at start, before
 * the rows were written, and does not run again here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanCatalogue } from '../../../src/core/plans.js';
import { bearer, writePlansFile } from '../../support/access.js';
import { registerUser, reportFrame, startTestService, type TestService } from '../../support/service.js';

const DAY_MS = 24 * 3600 * 1000;
const MS = 1_000_000;
/** The default plan keeps 2 days (hot 1 + warm 1). */
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
  ],
};

describe('reads clamped to the plan retention (chDB)', () => {
  let service: TestService;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
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
    const trace = (recordedAt: string) => ({
      id: randomUUID(),
      endpoint: 'GET /orders',
      duration: 20 * MS,
      recordedAt,
      statusCode: 200,
      bodySize: 10,
      clientIP: '198.51.100.1',
    });
    const error = (recordedAt: string) => ({
      stackTrace: 'Error: boom\nmain()\n    /app/main.go:10',
      recordedAt,
      isMessage: false,
    });
    await reportFrame(service.app, owner.project.token, {
      traces: [trace(ago(5 * DAY_MS)), trace(ago(3600_000))],
      stackTraces: [error(ago(5 * DAY_MS)), error(ago(3600_000))],
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

  it('a range wholly before the retention answers empty', async () => {
    const before = { fromDate: ago(6 * DAY_MS), toDate: ago(4 * DAY_MS) };
    expect((await post('/api/endpoints', before)).items).toEqual([]);
    expect((await post('/api/exception-stack-traces', before)).items).toEqual([]);
    expect((await post('/api/endpoints/detail', { name: 'GET /orders', ...before })).count).toBe(0);
  });
});
