/** The monthly ingest quota: decompressed bytes per organization, 503 + Retry-After when used up. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageCounterKey } from '../../src/ingest/usage.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';
import { runFolder } from '../support/test-run-folder.js';

const GB = 1_000_000_000;

describe('monthly ingest quota', () => {
  let service: TestService;
  let token: string;
  let organizationId: string;
  const plansFile = path.join(runFolder('sightline-plans-'), 'plans.json');

  beforeAll(async () => {
    const limits = {
      projects: 5,
      seats: 5,
      ingest_gb_monthly: 1,
      retention_days_hot: 30,
      retention_days_warm: 0,
      synthetics_checks: 0,
      session_recordings: 0,
    };
    fs.writeFileSync(
      plansFile,
      JSON.stringify({ defaultPlan: 'tiny', plans: [{ code: 'tiny', name: 'Tiny', limits }] }),
    );
    service = await startTestService({ PLANS_FILE: plansFile });
    const registered = await registerUser(service.app);
    token = registered.project.token;
    organizationId = registered.organization.id;
  });
  afterAll(async () => service?.close());

  const body = JSON.stringify({
    appVersion: '',
    serverName: '',
    collectionFrames: [{ metrics: [{ name: 'quota.probe', value: 1, recordedAt: new Date().toISOString() }] }],
  });
  const send = (url = '/api/report', payload: string | Buffer = zlib.gzipSync(body)) =>
    service.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload,
    });

  it('counts decompressed bytes, not the compressed body', async () => {
    expect((await send()).statusCode).toBe(200);
    const counted = await service.services.coord.get(usageCounterKey(organizationId, new Date()));
    expect(Number(counted)).toBe(Buffer.byteLength(body));
  });

  it('pauses every ingest route with 503 and Retry-After once the plan quota is used', async () => {
    const key = usageCounterKey(organizationId, new Date());
    const used = Number(await service.services.coord.get(key));
    // Bring the month's total to just under 1 GB: the next request is still admitted, and fills it.
    await service.services.coord.incrBy(key, GB - used - 10, 86_400_000);
    expect((await send()).statusCode).toBe(200);
    const paused = await send();
    expect(paused.statusCode).toBe(503);
    expect(paused.json()).toEqual({ error: 'ingest is paused: the organization used its monthly ingest quota (1 GB)' });
    const retryAfter = Number(paused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const otlp = await send('/api/otel/v1/logs', zlib.gzipSync('{"resourceLogs":[]}'));
    expect(otlp.statusCode).toBe(503);
    expect(otlp.json().error).toMatch(/monthly ingest quota/);
    // A protobuf exporter gets OTLP's google.rpc.Status: code 14 (UNAVAILABLE), then the message.
    const protobuf = await service.app.inject({
      method: 'POST',
      url: '/api/otel/v1/traces',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-protobuf' },
      payload: Buffer.alloc(0),
    });
    expect(protobuf.statusCode).toBe(503);
    expect(Number(protobuf.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(protobuf.headers['content-type']).toBe('application/x-protobuf');
    const message = Buffer.from('ingest is paused: the organization used its monthly ingest quota (1 GB)');
    expect(protobuf.rawPayload).toEqual(Buffer.concat([Buffer.from([0x08, 14, 0x12, message.length]), message]));
  });

  it('rebuilds a missing counter from the stored usage rows (a restart on the in-memory store)', async () => {
    const key = usageCounterKey(organizationId, new Date());
    await service.services.coord.del(key);
    // Two requests were stored before (the paused ones were not); this is the third.
    expect((await send()).statusCode).toBe(200);
    expect(Number(await service.services.coord.get(key))).toBe(3 * Buffer.byteLength(body));
  });
});
