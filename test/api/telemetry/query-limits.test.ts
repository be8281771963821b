/**
 * The read bounds come from configuration: a service started with QUERY_MAX_ROWS_TO_READ below
 * the rows a list must scan answers 422 "narrow the time range", not 500 and not a partial answer.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLimits, setQueryLimits, DEFAULT_QUERY_LIMITS } from '../../../src/store/telemetry/queries/run.js';
import { registerUser, reportTraces, startTestService, type TestService } from '../../support/service.js';

describe('read limits from configuration', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ QUERY_MAX_ROWS_TO_READ: '5', QUERY_MAX_EXECUTION_SECONDS: '7' });
  });
  afterAll(async () => {
    await service?.close();
    setQueryLimits(DEFAULT_QUERY_LIMITS);
  });

  it('applies QUERY_MAX_* to every read and answers 422 past them', async () => {
    expect(queryLimits()).toEqual({ maxRowsToRead: 5, maxExecutionSeconds: 7 });
    const owner = await registerUser(service.app);
    const traces = Array.from({ length: 12 }, (_, i) => ({
      id: randomUUID(),
      endpoint: 'GET /items',
      duration: 5_000_000,
      recordedAt: new Date(Date.now() - 60_000 - i * 1000).toISOString(),
      statusCode: 200,
      bodySize: 1,
      clientIP: '',
    }));
    const sent = await reportTraces(service.app, owner.project.token, traces);
    expect(sent.statusCode, sent.body).toBe(200);
    const listed = await service.app.inject({
      method: 'POST',
      url: `/api/endpoints?projectId=${owner.project.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {},
    });
    expect(listed.statusCode, listed.body).toBe(422);
    expect(listed.json().error).toMatch(/narrow the time range/);
  });
});
