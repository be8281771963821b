/** Reports over 16 MB decompressed are handled one at a time (their parsed trees are large). */
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_REPORT_BYTES } from '../../src/ingest/report/route.js';
import { registerUser, startTestService, type TestService } from '../support/service.js';

describe('large report bodies', () => {
  let service: TestService;
  let token: string;
  beforeAll(async () => {
    // A long flush interval keeps the first large request holding its slot while the others arrive.
    service = await startTestService({ INGEST_QUEUE_WAIT_MS: '0', WRITER_FLUSH_MS: '1500' });
    token = (await registerUser(service.app)).project.token;
  });
  afterAll(async () => service?.close());

  function report(padding: number): Buffer {
    const trace = {
      id: randomUUID(),
      endpoint: 'GET /big',
      duration: 1,
      recordedAt: new Date().toISOString(),
      statusCode: 200,
      bodySize: 0,
      clientIP: '',
      attributes: { padding: 'x'.repeat(padding) },
    };
    return zlib.gzipSync(JSON.stringify({ appVersion: '', serverName: '', collectionFrames: [{ traces: [trace] }] }));
  }
  const send = (payload: Buffer) =>
    service.app.inject({
      method: 'POST',
      url: '/api/report',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload,
    });

  it('refuses a second large body while one is in progress, and lets small ones through', async () => {
    const large = report(LARGE_REPORT_BYTES + 1024);
    const first = send(large);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [second, small] = await Promise.all([send(large), send(report(10))]);
    expect(second.statusCode).toBe(503);
    expect(second.json()).toEqual({ error: 'ingest of large bodies is at capacity, retry shortly' });
    expect(small.statusCode).toBe(200);
    expect((await first).statusCode).toBe(200);
    expect((await send(large)).statusCode).toBe(200);
  });
});
