/**
 * The HTTP edge of both surfaces: health, readiness, body caps measured after decompression,
 * bad encodings, slow bodies, and ingest authentication — through inject() and a real socket.
 */
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listeningTestService,
  registerUser,
  startTestService,
  type ListeningTestService,
  type TestService,
} from '../support/service.js';

const minimalReport = { collectionFrames: [], appVersion: '', serverName: '' };

/** POST /api/report with an ingest token and a JSON content type, in the Content-Encoding given if any. */
function postReport(service: TestService, token: string, payload: string | Buffer, contentEncoding?: string) {
  return service.app.inject({
    method: 'POST',
    url: '/api/report',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(contentEncoding ? { 'content-encoding': contentEncoding } : {}),
    },
    payload,
  });
}

describe('HTTP transport', () => {
  let service: ListeningTestService;
  let ingestToken: string;
  let sessionToken: string;

  beforeAll(async () => {
    service = await listeningTestService({ BODY_TIMEOUT_MS: '700' });
    const registered = await registerUser(service.app);
    ingestToken = registered.project.token;
    sessionToken = registered.token;
  });
  afterAll(async () => service?.close());

  it('answers /health, and /ready naming every engine', async () => {
    expect((await service.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    const ready = await service.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      stores: {
        telemetry: { engine: 'chdb', ok: true },
        meta: { engine: 'pglite', ok: true },
        objects: { engine: 'fs', ok: true },
        coord: { engine: 'memory', ok: true },
      },
    });
  });

  it('answers an unknown route with 404 and a JSON error', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/api/nope?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'no route GET /api/nope' });
  });

  it('answers a path segment over 100 characters with a JSON 400 saying so, over a real socket, whatever the method', async () => {
    const long = 'x'.repeat(150);
    const answers = [];
    for (const [method, path] of [
      ['GET', `/api/traces/${long}`],
      ['GET', `/api/organizations/${long}/members`],
      ['DELETE', `/api/personal-access-tokens/${long}`],
      ['GET', `/api/${long}`],
    ] as const) {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${sessionToken}` },
      });
      answers.push({ method, status: response.status, body: await response.json() });
    }
    expect(answers).toEqual(
      ['GET', 'GET', 'DELETE', 'GET'].map((method) => ({
        method,
        status: 400,
        body: { error: 'a path segment is longer than 100 characters' },
      })),
    );
    // Percent-escapes count as the character they stand for: 100 characters are a segment the router takes.
    const encoded = await fetch(`${service.url}/api/${'%41'.repeat(100)}`);
    expect(encoded.status).toBe(404);
  });

  it('accepts a gzip report and a plain one', async () => {
    const plain = await postReport(service, ingestToken, JSON.stringify(minimalReport));
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual({});
    const gzipped = await postReport(service, ingestToken, zlib.gzipSync(JSON.stringify(minimalReport)), 'gzip');
    expect(gzipped.statusCode).toBe(200);
  });

  it('answers 401 with an empty body on ingest for a missing, reformatted or foreign token', async () => {
    const dashed = `${ingestToken.slice(0, 8)}-${ingestToken.slice(8, 12)}-${ingestToken.slice(12, 16)}-${ingestToken.slice(16, 20)}-${ingestToken.slice(20)}`;
    for (const authorization of [
      undefined,
      `Bearer ${dashed}`,
      `Bearer ${ingestToken.toUpperCase()}`,
      `bearer ${ingestToken}`,
      `Bearer ${sessionToken}`,
      `Bearer ${'0'.repeat(32)}`,
    ]) {
      const response = await service.app.inject({
        method: 'POST',
        url: '/api/report',
        headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/json' },
        payload: JSON.stringify(minimalReport),
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.body).toBe('');
    }
  });

  it('answers 400 for a body that claims gzip but is not, and for an unknown encoding', async () => {
    const notGzip = await postReport(service, ingestToken, JSON.stringify(minimalReport), 'gzip');
    expect(notGzip.statusCode).toBe(400);
    expect(notGzip.json()).toEqual({ error: 'body is not valid gzip data' });
    const unknown = await postReport(service, ingestToken, 'x', 'zstd');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatch(/unsupported Content-Encoding "zstd"/);
  });

  it('answers 408 to a body that arrives too slowly, over a real socket', async () => {
    const { port } = new URL(service.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /api/report HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ingestToken}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"collectionFrames":`,
        );
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
      socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"error":"request body did not arrive within 700 ms"}');
  });
});

// The body clock of the service above is 700 ms, for the slow-body case; inflating 64 MB on a
// loaded machine can take longer than that, which would answer 408 before the cap is reached.
// The caps are checked on a service with the default body timeout.
describe('HTTP transport: decompression caps', () => {
  let bombService: TestService;
  let bombToken: string;

  beforeAll(async () => {
    bombService = await startTestService();
    bombToken = (await registerUser(bombService.app)).project.token;
  });
  afterAll(async () => bombService?.close());

  it('stops a gzip bomb at the cap after decompression: 64 MB on /api/report', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(200 * 1024);
    const response = await postReport(bombService, bombToken, bomb, 'gzip');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'request body is over the 64 MB limit (measured after decompression)' });
  });

  it('stops a gzip bomb at 8 MB on the application surface', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(9 * 1024 * 1024, 0x20), { level: 9 });
    const response = await bombService.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: bomb,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'request body is over the 8 MB limit (measured after decompression)' });
  });
});
