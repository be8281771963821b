/**
 * The rollup job runs on its own when ROLLUP_INTERVAL_SECONDS is set: hours that ended more than
 * ten minutes ago are rolled without anyone asking, and closing the service stops it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, reportTraces, startTestService, type TestService } from '../../support/service.js';

describe('rollup job', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ ROLLUP_INTERVAL_SECONDS: '1' });
  });
  afterAll(async () => service?.close());

  it('rolls hours that are due on its interval', async () => {
    const owner = await registerUser(service.app);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    const traces = [
      {
        id: randomUUID(),
        endpoint: 'GET /job',
        duration: 5_000_000,
        recordedAt: twoHoursAgo,
        statusCode: 200,
        bodySize: 1,
        clientIP: '',
      },
    ];
    const sent = await reportTraces(service.app, owner.project.token, traces);
    expect(sent.statusCode, sent.body).toBe(200);
    const rolled = async () =>
      (
        await service.services.telemetry.query<{ n: number }>(
          "SELECT toUInt64(sum(requests)) AS n FROM endpoint_hourly FINAL WHERE project_id = {p:UUID} AND name = 'GET /job'",
          {
            p: owner.project.id,
          },
        )
      )[0]?.n ?? 0;
    // Waits for the job (every second) rather than asserting a time.
    await expect.poll(rolled, { timeout: 30_000, interval: 250 }).toBe(1);
  });
});
